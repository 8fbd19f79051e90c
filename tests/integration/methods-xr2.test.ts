import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { readLinkReport } from '@/lib/kg/link-report';
import { recallTemplate } from '@/lib/llm/templates/generic';
import type { MethodAnswer } from '@/lib/methods/types';
import type { CandidateRow, KgRetrieval } from '@/lib/methods/xr2/stages/retrieve';
import type { StepExtraction } from '@/lib/methods/xr2/stages/extract';
import type { LoopState } from '@/lib/methods/xr2/state';
import { Xr2ParamsSchema } from '@/lib/methods/xr2/params';
import { checkTemplate, decomposeTemplate, extractTemplate, reasonTemplate, type CheckOutput, type Decomposition } from '@/lib/methods/xr2/templates';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';
import { createRun } from '@/lib/runs/service';
import type { TripleData } from '@/lib/trace/types';
import { reply, scriptedServerForSuite } from '../support/scripted-openai-server';
import { runToSuccess, edgeExists } from '../support/runs';
import { saveQuestionSet } from '@/lib/eval/sets';

const SHARED = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
// One anchor, so every KG unit is one triple and the top K units are K triples in both runs of the shuffle control.
const ONE_ANCHOR = 'Which genes are associated with multiple sclerosis?';
const MS = 'Disease::DOID:2377';
const CD = 'Disease::DOID:8778';
const ITERATION_CHILDREN = ['xr2.decompose', 'xr2.extract', 'xr2.kg', 'xr2.recall', 'xr2.reason', 'xr2.check'];
// How a triple reads in any prompt or step: "X (Kind) –verb→ Y (Kind)".
const TRIPLE_TEXT = /\) –[a-z ]+→ /;

afterAll(closeDb);

type Step = RunRecord['steps'][number];
const ofKind = (run: RunRecord, kind: string) => run.steps.filter((s) => s.kind === kind);
const childrenOf = (run: RunRecord, parent: Step) => run.steps.filter((s) => s.parentStepId === parent.id);
const answerOf = (run: RunRecord) => run.answer as unknown as MethodAnswer;
const kgEvidence = (run: RunRecord) => run.evidence.filter((e) => e.channel === 'kg');
const tripleOf = (run: RunRecord, id: string) => run.evidence.find((e) => e.id === id)?.data as TripleData | undefined;

const runXr2 = (body: Record<string, unknown>) => runToSuccess({ method: 'xr2', ...body });

async function nodeId(kind: string, name: string): Promise<string> {
  const { rows } = await getPool().query<{ id: string }>('select id from nodes where kind = $1 and name = $2', [kind, name]);
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

// The offline suites below run with Hopscope's aids on (answer set, completeness notice, option coverage; docs/aids.md);
// what the paper's method alone shows a model is tested over the scripted server.
const AIDS = { aids: true };

describe('X-R2 offline, aids on: a shared-neighbour list question', () => {
  let run: RunRecord;
  beforeAll(async () => {
    run = await runXr2({ question: SHARED, switches: AIDS });
  });

  it('runs with the paper defaults and leaves Root → read, then iterations of the six stages', () => {
    expect((run.config as { params: unknown }).params).toEqual(Xr2ParamsSchema.parse({}));
    expect((run.config as { switches: { aids: boolean } }).switches.aids).toBe(true);
    expect(Xr2ParamsSchema.parse({})).toMatchObject({ tMax: 5, topK: 5 });
    const roots = run.steps.filter((s) => s.parentStepId === null);
    expect(roots[0].kind).toBe('xr2.read');
    const iterations = roots.slice(1);
    expect(iterations.length).toBeGreaterThan(1);
    expect(iterations.every((s) => s.kind === 'xr2.iteration')).toBe(true);
    expect(iterations.map((s) => s.label)).toEqual(iterations.map((_, i) => `Iteration ${i + 1}`));
    for (const it of iterations) {
      const kinds = childrenOf(run, it).map((s) => s.kind);
      // RetrieveKG and RecallParametric run in parallel: either may be recorded first.
      expect(kinds.slice(0, 2)).toEqual(ITERATION_CHILDREN.slice(0, 2));
      expect([...kinds.slice(2, 4)].sort()).toEqual(ITERATION_CHILDREN.slice(2, 4).sort());
      expect(kinds.slice(4)).toEqual(ITERATION_CHILDREN.slice(4));
    }
  });

  it('re-decomposes after each check that does not stop, on the gap it named; the last check ends the loop', () => {
    const checks = ofKind(run, 'xr2.check').map((s) => s.output as unknown as { verdict: CheckOutput; action: string });
    const decompositions = ofKind(run, 'xr2.decompose');
    expect(decompositions[0].label).toBe('Decompose');
    for (let t = 1; t < decompositions.length; t++) {
      expect(checks[t - 1].verdict.stop).toBe(false);
      expect(checks[t - 1].action).toBe('re-decompose');
      expect(decompositions[t].label).toBe('Re-decompose');
      expect((decompositions[t].input as { gap: string[] }).gap).toEqual(checks[t - 1].verdict.missing);
    }
    expect(checks.at(-1)!.action).toMatch(/^stop/);
    const first = decompositions[0].output as unknown as Decomposition;
    expect(first.subquestions.length).toBeGreaterThan(1);
    expect(answerOf(run).extra).toMatchObject({ iterations: decompositions.length, action: checks.at(-1)!.action });
  });

  it('links the step entities through the entity channel and reads DaG as the relation cue', () => {
    for (const step of ofKind(run, 'xr2.extract')) {
      const out = step.output as unknown as StepExtraction;
      expect(out.linked.map((e) => e.nodeId).sort()).toEqual([MS, CD].sort());
      expect(out.relations.every((r) => r.metaedges[0] === 'DaG' && r.targetKind === 'Gene')).toBe(true);
      expect(childrenOf(run, step).some((s) => s.kind === 'channel.entity' && s.label === 'Link step question')).toBe(true);
    }
  });

  it('puts exactly K triples in each prompt (fewer only when candidates run out), keeps the rest as unselected candidates, and never shows a unit twice', async () => {
    const shown = new Set<number>();
    for (const step of ofKind(run, 'xr2.kg')) {
      const out = step.output as unknown as KgRetrieval;
      const selected = out.candidates.filter((c: CandidateRow) => c.status === 'selected');
      const triples = out.units.flatMap((u) => u.lines.flatMap((l) => l.triples));
      const candidates = out.candidates.filter((c) => c.status !== 'shown earlier').reduce((n, c) => n + c.evidenceIds.length, 0);
      expect(triples).toHaveLength(Math.min(5, candidates));
      expect(out.units).toHaveLength(selected.length);
      expect(out.candidates.some((c) => c.status === 'candidate')).toBe(true);
      // Taken in score order while they fit the budget; every term recorded; no option bonus by default.
      const ranked = selected.sort((a, b) => a.rank! - b.rank!);
      for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1].score).toBeGreaterThanOrEqual(ranked[i].score);
      for (const c of selected) expect(c.score).toBeCloseTo(c.coverage + c.relation + c.lexical, 2);
      for (const unit of out.units) {
        for (const line of unit.lines) {
          expect(run.evidence.find((e) => e.id === line.id)).toMatchObject({ channel: 'kg', selected: true });
          for (const t of line.triples) {
            expect(shown.has(t.edgeId)).toBe(false);
            shown.add(t.edgeId);
          }
        }
      }
      // The reason prompt of this iteration shows exactly these units.
      const reasonStep = childrenOf(
        run,
        run.steps.find((s) => s.id === step.parentStepId)!,
      ).find((s) => s.kind === 'xr2.reason')!;
      const prompt = (run.modelCalls.find((c) => c.stepId === reasonStep.id)!.messages as { content: string }[])[1].content;
      const cite = (id: string) => run.evidence.find((e) => e.id === id)!.cite;
      for (const unit of out.units) for (const line of unit.lines) expect(prompt).toContain(`[${cite(line.id)}] ${line.text}`);
    }
    expect(kgEvidence(run).some((e) => !e.selected)).toBe(true);
  });

  it('answers with genes the KG associates with both diseases, each citing the retrieved triples', async () => {
    const answer = answerOf(run);
    expect(answer.abstained).toBe(false);
    expect(answer.items!.length).toBeGreaterThanOrEqual(5);
    expect(answer.nodeIds).toHaveLength(answer.items!.length);
    for (const gene of answer.nodeIds!) {
      expect(await edgeExists(MS, 'DaG', gene)).toBe(true);
      expect(await edgeExists(CD, 'DaG', gene)).toBe(true);
    }
    const evidenceIds = new Set(run.evidence.map((e) => e.id));
    // A gene is cited by its two retrieved triples, or, where no shown triple states its edges, by the answer set that holds them.
    for (const claim of answer.claims) {
      const records = claim.evidenceIds.map((id) => {
        expect(evidenceIds.has(id)).toBe(true);
        return run.evidence.find((e) => e.id === id)!;
      });
      const triples = records.flatMap((r) =>
        r.kind === 'set' ? (r.data as { triples: TripleData[] }).triples.filter((t) => t.targetName === claim.text) : [tripleOf(run, r.id)!],
      );
      expect([...new Set(triples.map((t) => t.sourceId))].sort()).toEqual([MS, CD].sort());
      expect(triples.every((t) => t.targetName === claim.text && t.metaedge === 'DaG')).toBe(true);
    }
  });
});

describe('X-R2 offline: other question kinds and phrasings', () => {
  it('T_max = 1 runs one iteration and returns its answer', async () => {
    const run = await runXr2({ question: SHARED, params: { tMax: 1 }, switches: AIDS });
    expect(ofKind(run, 'xr2.iteration')).toHaveLength(1);
    const [check] = ofKind(run, 'xr2.check');
    expect((check.output as { action: string }).action).toBe('stop: T_max reached');
    // One iteration shows K triples and the complete answer set; the answer is the set, not the K triples.
    const set = run.evidence.find((e) => e.kind === 'set' && (e.data as { constraints: unknown[] }).constraints.length === 2)!;
    const answer = answerOf(run);
    expect([...answer.nodeIds!].sort()).toEqual((set.data as { members: { id: string }[] }).members.map((m) => m.id).sort());
  });

  it('a two-hop question: re-decomposes on the open hop, naming what the first hop reached', async () => {
    const run = await runXr2({ question: 'Which diseases are treated by drugs that bind PPARG?' });
    const pparg = await nodeId('Gene', 'PPARG');
    const [first, second] = ofKind(run, 'xr2.decompose').map((s) => s.output as unknown as Decomposition);
    expect(first.current).toBe('Which compounds bind PPARG?');
    const compounds = (ofKind(run, 'xr2.kg')[0].output as unknown as KgRetrieval).units.flatMap((u) =>
      u.lines.flatMap((l) => l.triples.map((t) => t.sourceName)),
    );
    expect(compounds.length).toBeGreaterThan(0);
    for (const c of compounds) expect(second.current).toContain(c);
    const answer = answerOf(run);
    expect(answer.abstained).toBe(false);
    for (const disease of answer.nodeIds!) {
      const { rowCount } = await getPool().query(
        `select 1 from edges b join edges t on t.source_id = b.source_id
          where b.metaedge = 'CbG' and b.target_id = $1 and t.metaedge = 'CtD' and t.target_id = $2`,
        [pparg, disease],
      );
      expect(rowCount).toBeGreaterThan(0);
    }
  });

  it('a count question: the number of distinct diseases the KG says metformin treats', async () => {
    const run = await runXr2({ question: 'How many diseases does metformin treat?' });
    const metformin = await nodeId('Compound', 'Metformin');
    const { rows } = await getPool().query<{ n: string }>("select count(distinct target_id) as n from edges where source_id = $1 and metaedge = 'CtD'", [
      metformin,
    ]);
    const answer = answerOf(run);
    expect(answer.count).toBe(Number(rows[0].n));
    expect(answer.text).toBe(rows[0].n);
    const cited = answer.evidenceIds.map((id) => tripleOf(run, id)!);
    expect(cited).toHaveLength(answer.count!);
    expect(cited.every((t) => t.sourceId === metformin && t.metaedge === 'CtD')).toBe(true);
  });

  it('multiple choice: the option the evidence names, with the triples that join it to both diseases', async () => {
    const run = await runXr2({
      question: "Which of the following genes is associated with both multiple sclerosis and Crohn's disease?",
      options: { A: 'BRCA1', B: 'APOE', C: 'TNF', D: 'INS' },
      switches: AIDS,
    });
    const answer = answerOf(run);
    expect(answer).toMatchObject({ optionKey: 'C', text: 'TNF', abstained: false });
    const tnf = await nodeId('Gene', 'TNF');
    const cited = answer.evidenceIds.map((id) => tripleOf(run, id)!);
    // The same two edges, as KG_t shows them and as the option tests read them (aid).
    expect([...new Set(cited.map((t) => t.sourceId))].sort()).toEqual([MS, CD].sort());
    expect(cited.every((t) => t.targetId === tnf)).toBe(true);
    // Options get no score bonus by default (neither paper has one); as a parameter, the unit reaching an option comes first.
    // With the aids on, reaching an option counts as a constraint met (option-coverage): the TNF units rank above the rest.
    const [kg] = ofKind(run, 'xr2.kg').map((s) => s.output as unknown as KgRetrieval);
    for (const c of kg.candidates) expect(c.score).toBeCloseTo(c.coverage + c.relation + c.lexical, 2);
    const boosted = await runXr2({ question: run.question, options: { A: 'BRCA1', B: 'APOE', C: 'TNF', D: 'INS' }, params: { optionBonus: 2 } });
    const [first] = ofKind(boosted, 'xr2.kg').map((s) => s.output as unknown as KgRetrieval);
    expect(first.candidates.find((c) => c.rank === 1)).toMatchObject({ focus: 1 });
  });

  it('yes/no: the claim holds when a retrieved KG edge states it', async () => {
    const run = await runXr2({ question: "Is IL23R associated with Crohn's disease?" });
    const answer = answerOf(run);
    expect(answer.text).toBe('yes');
    const [t] = answer.evidenceIds.map((id) => tripleOf(run, id)!);
    expect(await edgeExists(t.sourceId, t.metaedge, t.targetId)).toBe(true);
    expect([t.sourceId, t.targetId]).toEqual([CD, await nodeId('Gene', 'IL23R')]);
  });
});

describe('X-R2 offline under switches and the shuffled-KG control', () => {
  it('kg off: no KG evidence, no triple in any prompt or step, and an honest abstention', async () => {
    const run = await runXr2({ question: SHARED, switches: { kg: false } });
    expect(kgEvidence(run)).toHaveLength(0);
    const kgSteps = ofKind(run, 'channel.kg');
    expect(kgSteps.length).toBeGreaterThan(0);
    expect(kgSteps.every((s) => s.status === 'skipped')).toBe(true);
    for (const call of run.modelCalls) for (const m of call.messages as { content: string }[]) expect(m.content).not.toMatch(TRIPLE_TEXT);
    const stepText = JSON.stringify(run.steps.map((s) => [s.input, s.output]));
    expect(stepText).not.toMatch(TRIPLE_TEXT);
    expect(stepText).not.toContain('"edgeId"');
    expect(answerOf(run).abstained).toBe(true);
    expect((ofKind(run, 'xr2.check').at(-1)!.output as { action: string }).action).toBe('stop: nothing new to find');
  });

  it('entity off: mentions link by exact name only and no profile is read', async () => {
    const question = 'Name a gene that multiple sclerosis and crohn disease have in common.';
    const on = await runXr2({ question });
    const onLinks = ofKind(on, 'channel.entity').flatMap((s) => readLinkReport(s.output)?.links ?? []);
    expect(onLinks.some((l) => l.nodeId === CD && l.method !== 'exact')).toBe(true);

    const off = await runXr2({ question, switches: { entity: false } });
    const linkSteps = ofKind(off, 'channel.entity').filter((s) => s.status === 'succeeded');
    expect(linkSteps.every((s) => (s.input as { mode: string }).mode === 'exact name only (entity switch off)')).toBe(true);
    const links = linkSteps.flatMap((s) => readLinkReport(s.output)?.links ?? []);
    expect(links.every((l) => l.method === 'exact')).toBe(true);
    expect(links.some((l) => l.nodeId === CD)).toBe(false);
    expect(
      ofKind(off, 'channel.entity')
        .filter((s) => s.label === 'Entity profiles')
        .every((s) => s.status === 'skipped'),
    ).toBe(true);
    expect(off.evidence.some((e) => e.kind === 'profile')).toBe(false);
    expect(on.evidence.some((e) => e.kind === 'profile')).toBe(true);
  });

  it("kgShuffle is the matched control: each reason prompt holds as many KG triples as its unshuffled twin's, different ones, drawn from another question of the set", async () => {
    const name = `xr2-shuffle-${randomUUID()}`;
    await saveQuestionSet({
      name,
      source: 'jsonl',
      license: 'test',
      questions: [ONE_ANCHOR, 'Which compounds treat type 2 diabetes mellitus?', 'Which genes does metformin bind?'].map((text) => ({
        text,
        answer: { text: '', aliases: [], nodeIds: [] },
        answerType: 'list' as const,
      })),
    });
    const [questionId, ...others] = (
      await getPool().query<{ id: string }>('select q.id from questions q join question_sets s on s.id = q.set_id where s.name = $1 order by q.ordinal', [name])
    ).rows.map((r) => r.id);
    const twin = await runXr2({ questionId });
    const shuffled = await runXr2({ questionId, kgShuffle: { seed: 5 } });
    expect((shuffled.config as { kgShuffle: unknown }).kgShuffle).toEqual({ seed: 5 });

    // The distinct KG triples a reason prompt shows, by their evidence text (however the prompt lays lines out).
    const promptTriples = (run: RunRecord) =>
      run.modelCalls
        .filter((c) => c.template === reasonTemplate.id)
        .map((c) => {
          const prompt = JSON.stringify(c.messages);
          const shown = kgEvidence(run).filter((e) => e.kind === 'triple' && prompt.includes(JSON.stringify(e.text).slice(1, -1)));
          return [...new Map(shown.map((e) => [e.text, e])).values()];
        });
    const questionsOf = (run: RunRecord) => ofKind(run, 'xr2.reason').map((s) => (s.input as { current: string }).current);
    const [a, b] = [promptTriples(twin), promptTriples(shuffled)];
    const [qa, qb] = [questionsOf(twin), questionsOf(shuffled)];
    expect(a[0].length).toBeGreaterThan(0);
    // Every step that asked the same step question saw the same number of triples, and not the same triples.
    let compared = 0;
    for (let t = 0; t < Math.min(a.length, b.length) && qa[t] === qb[t]; t++) {
      expect(b[t].length).toBe(a[t].length);
      expect(new Set(b[t].map((e) => e.ref))).not.toEqual(new Set(a[t].map((e) => e.ref)));
      compared++;
    }
    expect(compared).toBeGreaterThan(0);

    // The shuffled triples never touch the question's own entities, and come from a donor question of the same set, recorded in the trace.
    for (const e of kgEvidence(shuffled)) {
      const t = e.data as TripleData & { shuffledFrom?: string[] };
      if (e.kind !== 'triple') continue;
      expect([t.sourceId, t.targetId]).not.toContain(MS);
      expect(t.shuffledFrom!.every((id) => others.includes(id))).toBe(true);
    }
    const draws = ofKind(shuffled, 'channel.kg-shuffle');
    expect(draws.length).toBeGreaterThan(0);
    for (const d of draws) {
      const input = d.input as { seed: number; replaced: number };
      expect(input.seed).toBe(5);
      expect(run(d).length).toBe(input.replaced);
    }
    // The triples the draw's triple read returned: its own records, or earlier identical ones it refers to (recorded once a run).
    function run(step: Step) {
      const read = shuffled.steps.find((s) => s.id === step.parentStepId)!;
      const returned = new Set((read.output as { id: string }[]).map((r) => r.id));
      return shuffled.evidence.filter((e) => returned.has(e.id) && e.kind === 'triple');
    }
    for (const s of ofKind(shuffled, 'channel.kg')) expect((s.input as { kgShuffle: unknown }).kgShuffle).toEqual({ seed: 5 });
    // The question's own anchors are what the step asked for; the channel replaced what they returned.
    expect((ofKind(shuffled, 'channel.kg')[0].input as { anchors: string[] }).anchors).toEqual([MS]);
    expect(
      answerOf(shuffled)
        .claims.flatMap((c) => c.evidenceIds)
        .every((id) => kgEvidence(shuffled).some((e) => e.id === id)),
    ).toBe(true);
  });
});

describe('X-R2 over an OpenAI-compatible server', () => {
  const scripted = scriptedServerForSuite((request) => {
    const [system, user] = request.body.messages as { content: string }[];
    const json = (value: unknown) => reply.ok(JSON.stringify(value));
    switch (system.content) {
      case decomposeTemplate.system:
        return json({
          subquestions: ['Which genes are associated with multiple sclerosis?', "Which of those are associated with Crohn's disease?"],
          constraints: ['genes'],
          required_evidence: ['DaG triples'],
          current: SHARED,
        });
      case extractTemplate.system:
        return json({
          entities: [
            { mention: 'multiple sclerosis', kind: 'Disease' },
            { mention: "Crohn's disease", kind: 'Disease' },
          ],
          relations: ['multiple sclerosis', "Crohn's disease"].map((entity) => ({
            entity,
            metaedges: ['DaG'],
            direction: 'out',
            targetKind: 'Gene',
            cue: 'associated',
            negated: false,
          })),
          answerKind: 'Gene',
          outputFormat: 'list',
          constraints: [{ type: 'shared', text: 'both' }],
        });
      case recallTemplate.system:
        return json({ claims: [{ statement: 'TNF is a pro-inflammatory cytokine.', confidence: 0.9 }] });
      case reasonTemplate.system: {
        // Name every gene of this step's KG units joined to both diseases, citing its lines, plus one id that was never shown.
        const block = user.content
          .split(/KG triples of this step KG_t \(showing \d+ of \d+ ranked candidate triples\):\n/)[1]
          .split('\n\nEstablished in earlier steps')[0];
        const byGene = new Map<string, string[]>();
        for (const m of block.matchAll(/\[(K\d+)\] .+? –associates→ (.+?) \(Gene\)/g)) byGene.set(m[2], [...(byGene.get(m[2]) ?? []), m[1]]);
        const shared = [...byGene].filter(([, ids]) => ids.length === 2);
        const claims = shared.map(([gene, ids]) => ({ text: gene, evidenceIds: [...ids, 'not-a-shown-id'] }));
        return json({
          answer: shared.map(([gene]) => gene),
          optionKey: null,
          count: null,
          abstain: false,
          rationale: 'shared DaG neighbours',
          claims,
          evidenceIds: ['not-a-shown-id'],
        });
      }
      case checkTemplate.system:
        return json({ stop: true, sufficient: true, consistent: true, reason: 'every gene is joined to both diseases', missing: [] });
      default:
        return reply.status(500, { message: `unexpected role: ${system.content.slice(0, 40)}` });
    }
  });

  it('plays every role through the server, keeps parametric claims apart, and drops citations of unshown ids', async () => {
    const { id } = await createRun({ method: 'xr2', backend: 'openai', question: SHARED }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    expect((run.config as { backend: { backend: string } }).backend.backend).toBe('openai');
    expect(run.modelCalls.map((c) => c.role)).toEqual(['decompose', 'extract', 'recall', 'reason', 'check']);
    expect(run.modelCalls.every((c) => c.backend === 'openai' && c.error === null)).toBe(true);
    expect(scripted.server.requests).toHaveLength(5);
    expect(ofKind(run, 'xr2.iteration')).toHaveLength(1);

    const state = ofKind(run, 'xr2.iteration')[0].output as unknown as LoopState;
    expect(state.action).toBe('stop');
    const units = (ofKind(run, 'xr2.kg')[0].output as unknown as KgRetrieval).units;
    // The prompt budget is exactly K = 5 triples: two shared-gene units of two triples, then one single triple.
    expect(units.flatMap((u) => u.lines).filter((l) => !l.check)).toHaveLength(5);
    const answer = answerOf(run);
    const sharedUnits = units.filter((u) => u.lines.length === 2);
    expect(answer.items).toHaveLength(sharedUnits.length);
    for (const gene of answer.nodeIds!) expect((await edgeExists(MS, 'DaG', gene)) && (await edgeExists(CD, 'DaG', gene))).toBe(true);
    const kgIds = new Set(units.flatMap((u) => u.lines.map((l) => l.id)));
    expect(answer.evidenceIds.length).toBe(2 * sharedUnits.length);
    expect(answer.evidenceIds.every((e) => kgIds.has(e))).toBe(true);
    expect(answer.claims.every((c) => !c.evidenceIds.includes('not-a-shown-id'))).toBe(true);

    const [claim] = run.evidence.filter((e) => e.channel === 'param');
    expect(claim).toMatchObject({ kind: 'claim', text: 'TNF is a pro-inflammatory cytokine.', scores: { confidence: 0.9 }, selected: true });
    const reasonPrompt = (run.modelCalls.find((c) => c.role === 'reason')!.messages as { content: string }[])[1].content;
    const [kgPart, claimPart] = reasonPrompt.split('Unverified memory M_t');
    expect(claimPart).toContain(`[${claim.cite}] ${claim.text}`);
    expect(kgPart).not.toContain(claim.id);
  });
});

describe('X-R2 over an OpenAI-compatible server: an intersection taken one disease per step', () => {
  const steps = ['Which genes are associated with multiple sclerosis?', "Which genes are associated with Crohn's disease?"];
  const stepDisease = (user: string) => (user.includes(`Step question Q_t: ${steps[1]}`) ? "Crohn's disease" : 'multiple sclerosis');

  scriptedServerForSuite((request) => {
    const [system, user] = request.body.messages as { content: string }[];
    const json = (value: unknown) => reply.ok(JSON.stringify(value));
    switch (system.content) {
      case decomposeTemplate.system:
        // As a model does: one disease per step, the second once the check names it.
        return json({
          subquestions: steps,
          constraints: ['both'],
          required_evidence: ['DaG sets'],
          current: user.content.includes('Iteration 1 of') ? steps[0] : steps[1],
        });
      case extractTemplate.system: {
        const disease = stepDisease(user.content);
        return json({
          entities: [{ mention: disease, kind: 'Disease' }],
          relations: [{ entity: disease, metaedges: ['DaG'], direction: 'out', targetKind: 'Gene', cue: 'associated', negated: false }],
          answerKind: 'Gene',
          outputFormat: 'list',
          constraints: [],
        });
      }
      case recallTemplate.system:
        return json({ claims: [] });
      case reasonTemplate.system:
        return json({ answer: [], optionKey: null, count: null, abstain: true, rationale: 'one side only', claims: [], evidenceIds: [] });
      case checkTemplate.system:
        // As a model does, the check names the iteration it judged, in its own words.
        return json({
          stop: user.content.includes('Iteration 2 of'),
          sufficient: false,
          consistent: true,
          reason: `iteration ${user.content.includes('Iteration 2 of') ? 2 : 1} of 2: the other disease is missing`,
          missing: ["genes associated with Crohn's disease"],
        });
      default:
        return reply.status(500, { message: `unexpected role: ${system.content.slice(0, 40)}` });
    }
  });

  it('with the aids off (the default), each reason prompt holds exactly K triples and no answer set; the check is not told what went unshown', async () => {
    const { id } = await createRun({ method: 'xr2', backend: 'openai', question: SHARED, params: { tMax: 2 } }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    expect(ofKind(run, 'xr2.iteration')).toHaveLength(2);
    expect(run.evidence.some((e) => e.kind === 'set' || e.channel === 'aids')).toBe(false);
    expect(ofKind(run, 'channel.aids')).toHaveLength(0);
    const prompts = run.modelCalls.filter((c) => c.role === 'reason').map((c) => (c.messages as { content: string }[])[1].content);
    expect(prompts).toHaveLength(2);
    for (const p of prompts) {
      // The header counts exactly the lines listed: triples, and check lines apart, each after the edges.
      const [, triples, checks, block] =
        /KG triples of this step KG_t \(showing (\d+) of \d+ ranked candidate triples(?:, and (\d+) no-edge check lines?)?\):\n([^]*?)(?:\n\n|$)/.exec(p)!;
      const lines = block.split('\n').map((l) => l.trim());
      const checkLines = lines.filter((l) => /^\[K\d+\] No edge/.test(l));
      expect(lines.filter((l) => /^\[K\d+\] /.test(l) && !checkLines.includes(l))).toHaveLength(Number(triples));
      expect(checkLines).toHaveLength(Number(checks ?? 0));
      expect(lines.slice(lines.length - checkLines.length)).toEqual(checkLines);
      expect([...block.matchAll(/\[K\d+\] (?!No edge)/g)]).toHaveLength(5);
      expect(p).not.toMatch(/answer set|Hopscope aid/i);
    }
    for (const c of run.modelCalls.filter((x) => x.role === 'check'))
      expect((c.messages as { content: string }[])[1].content).not.toMatch(/of those not shown|Hopscope aid/);
    // Iteration 2's decomposition says it is iteration 2, and names iteration 1 as the source of the check it shows.
    const decomposePrompts = run.modelCalls.filter((c) => c.role === 'decompose').map((c) => (c.messages as { content: string }[])[1].content);
    expect(decomposePrompts[0]).toContain('Iteration 1 of at most 2: decompose the question.');
    expect(decomposePrompts[1]).toContain('Iteration 2 of at most 2: re-decompose.');
    expect(decomposePrompts[1]).toContain('Self-check of A_1 (iteration 1): iteration 1 of 2: the other disease is missing');
    expect(decomposePrompts[1]).not.toMatch(/^Self-check: /m);
  });

  it("with the aids on, every reason prompt holds one answer set: the question's own, never a step's that could disagree with it", async () => {
    const { id } = await createRun({ method: 'xr2', backend: 'openai', question: SHARED, params: { tMax: 2 }, switches: AIDS }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    expect(ofKind(run, 'xr2.iteration')).toHaveLength(2);
    const sets = run.evidence.filter((e) => e.kind === 'set');
    expect(sets.every((e) => e.channel === 'aids')).toBe(true);
    const anchorsOf = (e: (typeof sets)[number]) => (e.data as { constraints: { anchor: string }[] }).constraints.map((c) => c.anchor).sort();
    const both = sets.find((e) => anchorsOf(e).join() === [CD, MS].sort().join())!;
    expect(both).toBeTruthy();
    // The intersection is what the KG holds: every member is associated with both diseases.
    const members = (both.data as { members: { id: string }[] }).members;
    expect(members.length).toBeGreaterThan(0);
    for (const m of members.slice(0, 5)) expect((await edgeExists(MS, 'DaG', m.id)) && (await edgeExists(CD, 'DaG', m.id))).toBe(true);

    const prompts = run.modelCalls.filter((c) => c.role === 'reason').map((c) => (c.messages as { content: string }[])[1].content);
    expect(prompts).toHaveLength(2);
    for (const p of prompts) {
      const heading = 'Hopscope aid, not part of the method: complete answer set from the KG (one unit: every node meeting the relations as read):\n';
      const block = p.split(heading)[1]?.split('\n\n')[0] ?? '';
      expect(block.split('\n')).toEqual([expect.stringMatching(new RegExp(`^\\[${both.cite}\\] Complete answer set in the KG: `))]);
      expect(p.split(heading)).toHaveLength(2);
    }
    // The check is told, as an aid, how many equally good candidates went unshown.
    for (const c of run.modelCalls.filter((x) => x.role === 'check'))
      expect((c.messages as { content: string }[])[1].content).toMatch(/Hopscope aid, not part of the method: of those not shown, \d+ match/);
    const extra = (run.answer as { extra: { aids: { aid: string }[] } }).extra;
    expect(extra.aids.map((a) => a.aid)).toEqual(expect.arrayContaining(['answer-set', 'completeness-notice']));

    // Recall names the step's entities as entities, and its relation apart, in the metaedge's direction with the KG's verb.
    const recalls = run.modelCalls.filter((c) => c.role === 'recall').map((c) => (c.messages as { content: string }[])[1].content);
    expect(recalls[0]).toContain('Entities mentioned: multiple sclerosis (Disease)\n');
    expect(recalls[0]).toContain('Relations asked about: multiple sclerosis –associates→ Gene');
    expect(recalls[1]).toContain("Entities mentioned: Crohn's disease (Disease)\n");
  });
});
