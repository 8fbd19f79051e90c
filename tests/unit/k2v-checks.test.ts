import { describe, expect, it } from 'vitest';
import { ModelClient } from '@/lib/llm/client';
import { OfflineBackend } from '@/lib/llm/offline-backend';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import { checkCriterion } from '@/lib/verify/checks';
import { generalCriteria } from '@/lib/verify/criteria';
import { runReasoning, TRACE_ENTRY_CHARS, TRACE_TOTAL_CHARS, type RunReasoning } from '@/lib/verify/reasoning';
import { checklistTemplate, judgeTemplate } from '@/lib/verify/templates';
import '@/lib/verify/offline';

const question = 'Which disease is treated by metformin and is associated with the gene PPARG?';
function link(mention: string, nodeId: string, kind: string, name: string): LinkedEntity {
  const start = question.indexOf(mention);
  return { nodeId, kind, name, mention, start, end: start + mention.length };
}
const entities = [link('metformin', 'Compound::DB00331', 'Compound', 'Metformin'), link('PPARG', 'Gene::5468', 'Gene', 'PPARG')];
const t2dm = 'type 2 diabetes mellitus';
const ctd = {
  edgeId: 1,
  sourceId: 'Compound::DB00331',
  sourceName: 'Metformin',
  sourceKind: 'Compound',
  metaedge: 'CtD',
  verb: 'treats',
  targetId: 'Disease::DOID:9352',
  targetName: t2dm,
  targetKind: 'Disease',
};
const dag = {
  edgeId: 2,
  sourceId: 'Disease::DOID:9352',
  sourceName: t2dm,
  sourceKind: 'Disease',
  metaedge: 'DaG',
  verb: 'associates',
  targetId: 'Gene::5468',
  targetName: 'PPARG',
  targetKind: 'Gene',
};

const grounded: RunReasoning = {
  trace: [],
  answerType: 'open',
  options: null,
  answer: { text: t2dm, optionKey: null, items: [], count: null, abstained: false, nodeIds: ['Disease::DOID:9352'] },
  rationale: `CtD(Metformin) ∩ DaG(PPARG) = {${t2dm}}`,
  claims: [{ text: t2dm, evidenceIds: ['e1', 'e2'] }],
  evidence: [
    { id: 'e1', text: `Metformin (Compound) – treats – ${t2dm} (Disease)`, triples: [ctd] },
    { id: 'e2', text: `${t2dm} (Disease) – associates – PPARG (Gene)`, triples: [dag] },
  ],
  entities,
};
const abstained: RunReasoning = {
  ...grounded,
  answer: { ...grounded.answer, text: '', abstained: true, nodeIds: [] },
  rationale: 'no evidence',
  claims: [],
  evidence: [],
};
const unsupported: RunReasoning = { ...grounded, answer: { ...grounded.answer, text: 'obesity', nodeIds: [] }, claims: [{ text: 'obesity', evidenceIds: [] }] };

const general = Object.fromEntries(generalCriteria().criteria.map((c) => [c.id, c]));
const verdictOf = (id: string, r: RunReasoning) => checkCriterion(general[id], r).verdict;

describe('offline judge checks', () => {
  it('general criteria tell a grounded answer from an abstention and from an unsupported answer', () => {
    expect(['G1', 'G2', 'G3', 'G4', 'G5', 'G6', 'G7'].map((id) => verdictOf(id, grounded))).toEqual(['yes', 'yes', 'yes', 'yes', 'yes', 'yes', 'yes']);
    expect(['G1', 'G2', 'G3', 'G5', 'G7'].map((id) => verdictOf(id, abstained))).toEqual(['no', 'no', 'no', 'no', 'no']);
    expect(checkCriterion(general.G2, unsupported)).toEqual({ verdict: 'no', reason: '1 of 1 claim(s) cite no recorded evidence' });
    expect(checkCriterion(general.G5, unsupported)).toEqual({ verdict: 'no', reason: 'the cited evidence never names obesity' });
  });

  it('question-specific criteria are checked against the cited triples', () => {
    const check = (text: string, r: RunReasoning = grounded) => checkCriterion({ text, check: null }, r);
    expect(check('The answer is supported by a Compound–Disease (CtD) relation to Metformin.').verdict).toBe('yes');
    expect(check('The answer is supported by a Compound–Disease (CpD) relation to Metformin.').verdict).toBe('no');
    expect(check('The answer is supported by a Gene–Disease (DaG) relation to PPARG.', unsupported).verdict).toBe('no');
    expect(check('The answer names a disease.').verdict).toBe('yes');
    expect(check('The answer names a gene.').verdict).toBe('no');
    expect(check(`The answer identifies ${t2dm}.`).verdict).toBe('yes');
    expect(check('The answer identifies obesity.').verdict).toBe('no');
    expect(check('The count stated is 3.', { ...grounded, answerType: 'count', answer: { ...grounded.answer, text: '3', count: 3 } }).verdict).toBe('yes');
    expect(check('The count stated is 4.', { ...grounded, answerType: 'count', answer: { ...grounded.answer, text: '3', count: 3 } }).verdict).toBe('no');
    expect(check('Explains the pharmacology of biguanides.')).toEqual({
      verdict: 'no',
      reason: 'the offline engine has no programmatic check for this criterion',
    });
  });
});

describe('offline checklist and judge roles', () => {
  const model = new ModelClient(new OfflineBackend());
  const base = { question, options: null, answerType: 'open' as const, general: generalCriteria().criteria.map((c) => c.text), entities, optionLinks: {} };

  it('instantiates the question: answer kind, one relation per named entity, and the gold answer when known', async () => {
    const withGold = await model.call(checklistTemplate, { ...base, gold: { text: t2dm, key: null, count: null } });
    expect(withGold.parsed?.criteria).toEqual([
      'The answer names a disease.',
      'The answer is supported by a Compound–Disease (CtD) relation to Metformin.',
      'The answer is supported by a Gene–Disease (DaG) relation to PPARG.',
      `The answer identifies ${t2dm}.`,
    ]);
    const withoutGold = await model.call(checklistTemplate, { ...base, gold: null });
    expect(withoutGold.parsed?.criteria).toHaveLength(3);
    const count = await model.call(checklistTemplate, {
      ...base,
      question: 'How many genes are associated with asthma?',
      entities: [],
      answerType: 'count',
      gold: { text: '', key: null, count: 12 },
    });
    expect(count.parsed?.criteria).toEqual(['The count is stated as an integer.', 'The count stated is 12.']);
  });

  it('the judge role answers each criterion with the programmatic check', async () => {
    const r = await model.call(judgeTemplate, { question, gold: null, criterion: { text: 'The answer names a disease.', check: null }, reasoning: grounded });
    expect(r.parsed).toEqual({ verdict: 'yes', reason: 'the answer is a disease in the KG' });
  });
});

describe("the judge reads the run's reasoning trace", () => {
  it("lists the method's model calls in order, each clipped, and says when the budget cut the rest", () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({ step: `Step ${i + 1}`, role: 'reason', output: 'x'.repeat(TRACE_ENTRY_CHARS + 100) }));
    const r = runReasoning({ answerType: 'open', options: null }, null, [], [], calls);
    expect(r.trace[0]).toEqual({ step: 'Step 1', role: 'reason', text: `${'x'.repeat(TRACE_ENTRY_CHARS)}…` });
    const shown = r.trace.filter((t) => t.step !== '…');
    expect(shown.reduce((n, t) => n + t.text.length - 1, 0)).toBeLessThanOrEqual(TRACE_TOTAL_CHARS);
    expect(r.trace.at(-1)!.text).toMatch(/further model calls not shown/);
    const prompt = judgeTemplate.render({ question: 'q', gold: null, criterion: { text: 'c', check: null }, reasoning: r });
    expect(prompt).toContain('(1) Step 1 [reason]: xxx');
  });
});
