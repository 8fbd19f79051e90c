import { describe, expect, it } from 'vitest';
import { continueReasoning, reasoningPlan, revisionPlan } from '@/lib/methods/eigen1/offline/reasoning';
import { monitorWindow, writeAside, writeQuery } from '@/lib/methods/eigen1/offline/monitoring';
import { evaluateSolution, proposeSolution, rankCandidates, refineSolution, understand } from '@/lib/methods/eigen1/offline/solving';
import type { EvidenceItem, QuestionFrame, Solution } from '@/lib/methods/eigen1/templates';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { TripleData } from '@/lib/trace/types';

const question = 'Which disease is treated by metformin and is associated with the gene PPARG?';
function link(mention: string, nodeId: string, kind: string, name: string): LinkedEntity {
  const start = question.indexOf(mention);
  return { nodeId, kind, name, mention, start, end: start + mention.length };
}
const frame: QuestionFrame = {
  question,
  options: null,
  entities: [link('metformin', 'Compound::DB00331', 'Compound', 'Metformin'), link('PPARG', 'Gene::5468', 'Gene', 'PPARG')],
  optionLinks: {},
  context: [],
  retrieved: [],
};

function triple(id: string, t: Partial<TripleData> & Pick<TripleData, 'sourceName' | 'targetName' | 'metaedge'>): EvidenceItem {
  const data: TripleData = {
    edgeId: 1,
    sourceId: `x::${t.sourceName}`,
    sourceKind: 'Compound',
    verb: 'treats',
    targetId: `x::${t.targetName}`,
    targetKind: 'Disease',
    ...t,
  };
  return { id, text: `${data.sourceName} – ${data.verb} – ${data.targetName}`, triples: [data] };
}
const metforminTreats = (disease: string, id: string) =>
  triple(id, { sourceId: 'Compound::DB00331', sourceName: 'Metformin', metaedge: 'CtD', targetId: `Disease::${disease}`, targetName: disease });
const ppargAssociated = (disease: string, id: string) =>
  triple(id, {
    sourceId: `Disease::${disease}`,
    sourceName: disease,
    sourceKind: 'Disease',
    verb: 'associates',
    metaedge: 'DaG',
    targetId: 'Gene::5468',
    targetName: 'PPARG',
    targetKind: 'Gene',
  });

describe('offline reasoning stream', () => {
  const u = understand(frame);

  it('states one need per constraint, never a fact, and rotates which comes first by proposer', () => {
    const first = continueReasoning(reasoningPlan(u, 0), '');
    const second = continueReasoning(reasoningPlan(u, 1), '');
    const needs = (text: string) => [...text.matchAll(/To answer this I need the ([^.]+)\./g)].map((m) => m[1]);
    expect(needs(first)).toEqual(['diseases that are treated by Metformin', 'diseases that are associated with PPARG']);
    expect(needs(second)).toEqual(['diseases that are associated with PPARG', 'diseases that are treated by Metformin']);
    expect(first).not.toMatch(/diabetes|syndrome/i);
    // Long enough that the paper's 512-character monitor window sees the first need.
    expect(first.length).toBeGreaterThan(512);
    expect(first.indexOf('To answer this I need')).toBeLessThan(512);
  });

  it('continues after an aside: drops the answered need, restarts the interrupted paragraph, keeps the rest', () => {
    const plan = reasoningPlan(u, 0);
    const full = continueReasoning(plan, '');
    const cut = full.indexOf('I do not have these facts');
    const aside =
      ' Wait a minute, by searching information about diseases that are associated with PPARG, I found that x associates PPARG. Now that I have more relevant information, I can continue my reasoning. ';
    const next = continueReasoning(plan, full.slice(0, cut) + aside);
    expect(next).not.toContain('I need the diseases that are associated with PPARG');
    expect(next.startsWith('First constraint')).toBe(true);
    expect(next).toContain('Answer: the disease the retrieved facts support.');
  });
});

describe('offline monitor, querier and injector', () => {
  it('flags a window that states a need without findings, and only such a window', () => {
    expect(monitorWindow({ window: 'To answer this I need the diseases that are treated by Metformin. I do not have' })).toMatchObject({
      needsRetrieval: true,
    });
    expect(monitorWindow({ window: 'Let me reason about this step by step.' })).toMatchObject({ needsRetrieval: false });
    expect(monitorWindow({ window: 'To answer this I need the x. Wait a minute, I found that y.' })).toMatchObject({ needsRetrieval: false });
  });

  it('queries the first need not yet searched', () => {
    const window = 'To answer this I need the diseases that are treated by Metformin. Then: To answer this I need the diseases that are associated with PPARG.';
    expect(writeQuery({ frame, window, asked: [] })).toEqual({ query: 'diseases that are treated by Metformin' });
    expect(writeQuery({ frame, window, asked: ['Diseases that are treated by metformin'] })).toEqual({ query: 'diseases that are associated with PPARG' });
    expect(writeQuery({ frame, window: 'Something about PPARG only.', asked: [] })).toEqual({ query: 'PPARG' });
  });

  it('cites the retrieved records by id in the paper template, never restating their text, and marks a cut sentence', () => {
    const retrieved = [
      metforminTreats('type 2 diabetes mellitus', 'e1'),
      { id: 'p1', text: 'Metformin lowers glucose. Unrelated sentence here.', triples: [] },
    ];
    const { aside, usedIds } = writeAside({ text: 'I do not have these fa', query: 'diseases that are treated by Metformin', retrieved });
    expect(aside).toBe(
      '… Wait a minute, by searching information about diseases that are treated by Metformin, I found that [e1], [p1] bear on it. Now that I have more relevant information, I can continue my reasoning.',
    );
    expect(aside).not.toContain('glucose');
    expect(usedIds).toEqual(['e1', 'p1']);
    expect(writeAside({ text: 'Done.', query: 'q', retrieved: [] }).aside).toBe(
      'Wait a minute, by searching information about q, I found nothing that bears on it. Now that I have more relevant information, I can continue my reasoning.',
    );
  });
});

describe('offline proposer, HSR refiner, evaluator and ranker', () => {
  const a = [metforminTreats('type 2 diabetes mellitus', 'e1'), metforminTreats('polycystic ovary syndrome', 'e2')];
  const b = [ppargAssociated('type 2 diabetes mellitus', 'e3'), ppargAssociated('obesity', 'e4')];

  it('answers only from the evidence given: one constraint covered is an abstention, both give the intersection', () => {
    expect(proposeSolution({ frame, evidence: a })).toMatchObject({ abstain: true, answer: '', claims: [] });
    const both = proposeSolution({ frame, evidence: [...a, ...b] });
    expect(both).toMatchObject({ abstain: false, answer: 'type 2 diabetes mellitus' });
    expect(both.claims[0].evidenceIds.sort()).toEqual(['e1', 'e3']);
  });

  it("HSR keeps a sound anchor and repairs a weak one with the references' evidence", () => {
    const sound: Solution = proposeSolution({ frame, evidence: [...a, ...b] });
    const kept = refineSolution({ frame, anchor: { solution: sound, evidence: [...a, ...b] }, references: [], retrieved: [] });
    expect(kept.answer).toBe('type 2 diabetes mellitus');
    expect(kept.rationale).toMatch(/no repair needed/);
    const weak = proposeSolution({ frame, evidence: a });
    const repaired = refineSolution({
      frame,
      anchor: { solution: weak, evidence: a },
      references: [{ solution: proposeSolution({ frame, evidence: b }), evidence: b }],
      retrieved: [],
    });
    expect(repaired).toMatchObject({ abstain: false, answer: 'type 2 diabetes mellitus' });
    expect(repaired.rationale).toMatch(/^Logic completion with evidence from Student 1\./);
    // What the refiner's own monitored reasoning retrieved repairs it as well.
    const fromRetrieval = refineSolution({ frame, anchor: { solution: weak, evidence: a }, references: [], retrieved: b });
    expect(fromRetrieval).toMatchObject({ abstain: false, answer: 'type 2 diabetes mellitus' });
    expect(fromRetrieval.rationale).toMatch(/^Logic completion with evidence from the retrieval during this refinement\./);
  });

  it("a reviser's reasoning states a need only for the constraints its evidence leaves uncovered", () => {
    const needs = (text: string) => [...text.matchAll(/To answer this I need the ([^.]+)\./g)].map((m) => m[1]);
    expect(needs(continueReasoning(revisionPlan(understand(frame), a, 'the candidate'), ''))).toEqual(['diseases that are associated with PPARG']);
    const covered = continueReasoning(revisionPlan(understand(frame), [...a, ...b], 'the candidate'), '');
    expect(needs(covered)).toEqual([]);
    expect(monitorWindow({ window: covered })).toMatchObject({ needsRetrieval: false });
  });

  it('scores an answer that follows from its evidence 5/5/5 and one that does not lower, with a suggestion', () => {
    const good = proposeSolution({ frame, evidence: [...a, ...b] });
    expect(evaluateSolution({ frame, candidate: { solution: good, evidence: [...a, ...b] } })).toMatchObject({ logic: 5, answer: 5, explanation: 5 });
    const wrong: Solution = { ...good, answer: 'obesity', claims: [{ text: 'obesity', evidenceIds: [] }] };
    const scored = evaluateSolution({ frame, candidate: { solution: wrong, evidence: [...a, ...b] } });
    expect(scored).toMatchObject({ logic: 2, answer: 1, explanation: 0 });
    expect(scored.suggestion).toBe('State the answer the evidence supports: type 2 diabetes mellitus');
  });

  it('ranks by q, then an answer over an abstention, then more cited evidence', () => {
    const view = (solution: Solution) => ({ solution, evidence: [] });
    const answered = proposeSolution({ frame, evidence: [...a, ...b] });
    const abstained = proposeSolution({ frame, evidence: a });
    expect(
      rankCandidates({
        candidates: [
          { label: 'R1', q: 1, view: view(abstained) },
          { label: 'R2', q: 1, view: view(answered) },
        ],
      }).best,
    ).toBe('R2');
    expect(
      rankCandidates({
        candidates: [
          { label: 'R1', q: 4.2, view: view(abstained) },
          { label: 'R2', q: 4, view: view(answered) },
        ],
      }).best,
    ).toBe('R1');
  });
});
