import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Channels, FULL_SWITCHES } from '@/lib/channels';
import { closeDb, getPrisma } from '@/lib/db/client';
import { ModelClient } from '@/lib/llm/client';
import { EmbeddingClient } from '@/lib/llm/embeddings';
import { OpenAIBackend } from '@/lib/llm/openai-backend';
import type { Generation, Injection } from '@/lib/methods/eigen1/stages/generate';
import { evidenceOf, monitoredGeneration } from '@/lib/methods/eigen1/stages/generate';
import type { LineageGraph } from '@/lib/methods/eigen1/lineage';
import { Eigen1ParamsSchema, type Eigen1Params } from '@/lib/methods/eigen1/params';
import { Lineage } from '@/lib/methods/eigen1/lineage';
import { refineHierarchically } from '@/lib/methods/eigen1/stages/refine';
import {
  generateTemplate,
  injectorTemplate,
  monitorTemplate,
  querierTemplate,
  refineReasoningTemplate,
  refineTemplate,
  type QuestionFrame,
  type Solution,
} from '@/lib/methods/eigen1/templates';
import type { MethodAnswer, MethodContext } from '@/lib/methods/types';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';
import { getStepDetail } from '@/lib/runs/view';
import { parseStepOutput } from '@/lib/trace/step-schemas';
import { createRun } from '@/lib/runs/service';
import { newShareId } from '@/lib/runs/share-id';
import { EmbeddingSimilarity, vectorCosine, type SimilarityUse } from '@/lib/llm/similarity';
import { TraceRecorder } from '@/lib/trace/recorder';
import { readTrace } from '@/lib/trace/store';
import type { TripleData } from '@/lib/trace/types';
import { bagOfWordsVector, reply, startScriptedOpenAIServer, type ScriptedServer } from '../support/scripted-openai-server';
import { resumeAfterCrashIn, stepKinds, untimed } from '../support/runs';

const QUESTION = 'Which disease is treated by metformin and is associated with the gene PPARG?';

/** A running EIGEN-1 run row and the method context of a model served by the scripted server (with the run's similarity when given). */
async function scriptedContext(server: ScriptedServer, similarity?: EmbeddingSimilarity) {
  const row = await (
    await getPrisma()
  ).run.create({
    data: { shareId: newShareId(), questionText: QUESTION, input: {}, method: 'eigen1', config: {}, configHash: 'test', status: 'running' },
  });
  const trace = await TraceRecorder.open(row.id);
  const model = new ModelClient(new OpenAIBackend({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 10_000 }), similarity ? { similarity } : {});
  const ctx: MethodContext<Eigen1Params> = {
    question: { text: QUESTION, options: null, answerType: 'open', documentIds: [], questionId: null },
    params: Eigen1ParamsSchema.parse({ windowChars: 60, overlapChars: 20 }),
    channels: new Channels({ switches: FULL_SWITCHES, kgShuffle: null, trace, model, documentIds: [] }),
    model,
    trace,
    backend: 'openai',
  };
  return { row, trace, ctx };
}

afterAll(closeDb);

type Step = RunRecord['steps'][number];
const childrenOf = (run: RunRecord, parent: Step) => run.steps.filter((s) => s.parentStepId === parent.id);
const ofKind = (run: RunRecord, kind: string) => run.steps.filter((s) => s.kind === kind);

// The offline runs below have Hopscope's aids on: the reader picks each query's anchors and relations, and options are checked (docs/aids.md).
const AIDS = { aids: true };

describe('EIGEN-1 offline with the aids on, end to end on Hetionet', () => {
  let run: RunRecord;

  it('runs to an answer', async () => {
    const { id } = await createRun({ method: 'eigen1', question: QUESTION, backend: 'offline', switches: AIDS }, { enqueue: false });
    await executeRun(id);
    run = await getRunRecord({ id });
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    expect((run.config as { params: Eigen1Params }).params).toEqual(Eigen1ParamsSchema.parse({}));
  });

  it("streams each proposer's reasoning under the monitor, in 512-character windows overlapping by 128", () => {
    const proposers = ofKind(run, 'eigen1.proposer');
    expect(proposers.map((p) => p.label)).toEqual(['Proposer 1', 'Proposer 2', 'Proposer 3', 'Proposer 4', 'Proposer 5']);
    for (const proposer of proposers) {
      const [generation, proposal] = childrenOf(run, proposer);
      expect([generation.kind, proposal.kind]).toEqual(['eigen1.generation', 'eigen1.propose']);
      const out = generation.output as unknown as Generation;
      expect(out.windows.length).toBeGreaterThan(0);
      for (const w of out.windows) expect(w.end - w.start).toBe(512);
      // Within one stretch of model text windows step by 512 − 128; a splice restarts them after the aside.
      for (const [i, w] of out.windows.entries()) {
        if (i === 0) continue;
        const prev = out.windows[i - 1];
        if (prev.spliced) {
          // The aside goes in at a sentence or word boundary, which may lie inside the window that asked for it.
          const inj = out.injections.find((x) => x.spliceOffset > prev.start)!;
          expect(w.start).toBe(inj.spliceOffset + inj.splice.length);
        } else expect(w.start - prev.start).toBe(384);
      }
      const monitors = childrenOf(run, generation).filter((s) => s.kind === 'eigen1.monitor');
      expect(monitors.map((m) => (m.output as { needsRetrieval: boolean }).needsRetrieval)).toEqual(out.windows.map((w) => w.needsRetrieval));
    }
  });

  it('splices injected asides that are marked as not model-written, with their query, retrieved evidence and offset', () => {
    const generations = ofKind(run, 'eigen1.generation').map((g) => ({ step: g, out: g.output as unknown as Generation }));
    const injections = generations.flatMap((g) => g.out.injections);
    expect(injections.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...generations.map((g) => g.out.injections.length))).toBeLessThanOrEqual(2);
    const evidence = new Map(run.evidence.map((e) => [e.id, e]));
    for (const { step, out } of generations) {
      for (const inj of out.injections) {
        expect(inj).toMatchObject({ writtenBy: 'injector', modelWritten: false });
        expect(inj.aside).toMatch(/^(… )?Wait a minute, by searching information about .+, I found/);
        expect(out.text.slice(inj.spliceOffset, inj.spliceOffset + inj.splice.length)).toBe(inj.splice);
        expect(out.segments).toContainEqual({ source: 'injected', start: inj.spliceOffset, end: inj.spliceOffset + inj.splice.length, call: null });
        // The retrieved records are the run's evidence, selected because the injector was shown them.
        expect(inj.retrieved.length).toBeGreaterThan(0);
        for (const r of inj.retrieved) expect(evidence.get(r.id)).toMatchObject({ text: r.text, selected: true });
        const injectionStep = childrenOf(run, step).find((s) => s.kind === 'eigen1.injection' && (s.output as unknown as Injection).index === inj.index)!;
        expect(childrenOf(run, injectionStep).map((s) => s.kind)).toEqual(['eigen1.querier', 'eigen1.retrieval', 'eigen1.injector']);
      }
      // Model-written and injected stretches tile the whole text.
      expect(out.segments.map((s) => out.text.slice(s.start, s.end)).join('')).toBe(out.text);
      // One call, then one continuation per splice, each carrying the text up to that aside as the assistant prefix.
      const calls = run.modelCalls.filter((c) => c.stepId === step.id);
      const injected = out.segments.filter((s) => s.source === 'injected');
      expect(calls).toHaveLength(injected.length + 1);
      for (const [i, call] of calls.entries()) {
        const last = (call.messages as { role: string; content: string }[]).at(-1)!;
        if (i === 0) expect(last.role).toBe('user');
        else expect(last).toEqual({ role: 'assistant', content: out.text.slice(0, injected[i - 1].end) });
      }
    }
  });

  it('corrects, refines every candidate as an anchor against the others, scores by q, and ranks', () => {
    expect(ofKind(run, 'eigen1.propose')).toHaveLength(5);
    const [correction] = ofKind(run, 'eigen1.correction');
    expect(childrenOf(run, correction).map((s) => s.label)).toEqual(['Correct P1', 'Correct P2', 'Correct P3', 'Correct P4', 'Correct P5']);
    const refinements = ofKind(run, 'eigen1.refine');
    expect(refinements.map((s) => s.input)).toEqual(
      [1, 2, 3, 4, 5].map((lane) => ({ anchor: `C${lane}`, references: [1, 2, 3, 4, 5].filter((l) => l !== lane).map((l) => `C${l}`) })),
    );
    const evaluations = ofKind(run, 'eigen1.evaluate');
    expect(evaluations.length).toBeGreaterThanOrEqual(5);
    for (const e of evaluations) {
      const scores = run.modelCalls.find((c) => c.stepId === e.id)!.parsed as { logic: number; answer: number; explanation: number };
      const { assessed } = e.output as { assessed: { quality: { q: number; passed: boolean } } };
      expect(assessed.quality.q).toBeCloseTo(0.2 * scores.logic + 0.6 * scores.answer + 0.2 * scores.explanation, 9);
      expect(assessed.quality.passed).toBe(assessed.quality.q >= 3);
    }
    const [rank] = ofKind(run, 'eigen1.rank');
    expect((rank.output as { chosen: string }).chosen).toBe((run.answer as unknown as MethodAnswer).extra!.selected);
  });

  it('records the candidate lineage from proposal to selection with answers and scores', () => {
    const [step] = ofKind(run, 'eigen1.lineage');
    const graph = step.output as unknown as LineageGraph;
    const ids = (stage: string) => graph.nodes.filter((n) => n.stage === stage).map((n) => n.id);
    expect(ids('proposal')).toEqual(['P1', 'P2', 'P3', 'P4', 'P5']);
    expect(ids('correction')).toEqual(['C1', 'C2', 'C3', 'C4', 'C5']);
    expect(ids('refinement')).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
    expect(graph.edges.filter((e) => e.relation === 'anchor')).toHaveLength(5);
    expect(graph.edges.filter((e) => e.relation === 'reference')).toHaveLength(20);
    for (const n of graph.nodes.filter((n) => n.stage === 'qair-evaluation')) {
      expect(n.q).toBeCloseTo(0.2 * n.scores!.logic + 0.6 * n.scores!.answer + 0.2 * n.scores!.explanation, 9);
    }
    const answer = run.answer as unknown as MethodAnswer;
    const selection = graph.nodes.find((n) => n.stage === 'selection')!;
    expect(selection).toMatchObject({ answer: answer.text, abstained: answer.abstained, q: answer.extra!.q });
    const into = graph.edges.find((e) => e.to === selection.id)!;
    expect(into.relation).toBe('selects');
    expect(graph.nodes.find((n) => n.id === into.from)).toMatchObject({ stage: 'qair-evaluation', lane: selection.lane });
    // Every node is reachable back to a proposal.
    for (const n of graph.nodes.filter((n) => n.stage !== 'proposal')) expect(graph.edges.some((e) => e.to === n.id)).toBe(true);
  });

  it('answers from the injected evidence: a disease Metformin treats and PPARG is associated with', () => {
    const answer = run.answer as unknown as MethodAnswer;
    expect(answer.abstained).toBe(false);
    const cited = run.evidence.filter((e) => answer.evidenceIds.includes(e.id)).map((e) => e.data as TripleData);
    expect(cited.some((t) => t.metaedge === 'CtD' && t.sourceName === 'Metformin' && t.targetName === answer.text)).toBe(true);
    expect(cited.some((t) => t.metaedge === 'DaG' && t.targetName === 'PPARG' && t.sourceName === answer.text)).toBe(true);
    expect(answer.claims.every((c) => c.evidenceIds.length > 0)).toBe(true);
  });

  it('counts model calls and tokens per stage, matching the recorded calls', () => {
    const usage = (run.answer as unknown as MethodAnswer).extra!.usage as { stages: { stage: string; calls: number; tokensIn: number }[]; calls: number };
    const byTemplate = (id: string) => run.modelCalls.filter((c) => c.template === id).length;
    const stage = (name: string) => usage.stages.find((s) => s.stage === name)?.calls ?? 0;
    expect(stage('generation')).toBe(byTemplate('eigen1.generate'));
    expect(stage('monitor')).toBe(byTemplate('eigen1.monitor'));
    expect(stage('injector')).toBe(byTemplate('eigen1.injector'));
    // HSR: per anchor, a monitored reasoning stream (with any continuations) and the statement of the refined solution.
    expect(stage('refinement')).toBe(byTemplate('eigen1.refine-reasoning') + byTemplate('eigen1.refine'));
    expect(byTemplate('eigen1.refine')).toBe(5);
    expect(stage('ranking')).toBe(1);
    expect(usage.calls).toBe(run.modelCalls.length);
    expect(usage.stages.every((s) => s.calls === 0 || s.tokensIn > 0)).toBe(true);
  });
});

describe('EIGEN-1 component ablations (Table 3 (b))', () => {
  it('– HSR skips the refinement; – QAIR scores once and corrects nothing; each generation says how it continued', async () => {
    const { id } = await createRun({ method: 'eigen1', question: QUESTION, backend: 'offline', params: { k: 2, hsr: false, qair: false } }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const [hsr] = ofKind(run, 'eigen1.hsr');
    expect(hsr.status).toBe('skipped');
    expect(ofKind(run, 'eigen1.refine')).toHaveLength(0);
    const [qair] = ofKind(run, 'eigen1.qair');
    expect(qair.label).toBe('Quality evaluation only (QAIR off: no correction rounds)');
    expect(ofKind(run, 'eigen1.qair-round')).toHaveLength(1);
    const qairCorrections = ofKind(run, 'eigen1.correct').filter((s) => run.steps.find((p) => p.id === s.parentStepId)?.kind === 'eigen1.qair-round');
    expect(qairCorrections).toHaveLength(0);
    for (const p of ofKind(run, 'eigen1.generation')) {
      const out = p.output as { continuation: string | null; segments: { source: string }[] };
      expect(out.continuation).toBe(out.segments.some((s) => s.source === 'injected') ? 'continued' : null);
    }
  });
});

describe('EIGEN-1 resumed: the Corrector, HSR and QAIR are made again from their stored children', () => {
  it('resumed after its last step was cut short, answers as before with the same steps, records and candidates in every view', async () => {
    const { id } = await createRun({ method: 'eigen1', question: QUESTION, backend: 'offline', params: { k: 3 } }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const views = async (r: RunRecord) =>
      Promise.all(r.steps.filter((s) => s.status !== 'failed').map(async (s) => (await getStepDetail(id, s.id)).step.output));
    const before = await views(run);

    // The parents name their children's candidates; the children hold them.
    const [qair] = ofKind(run, 'eigen1.qair');
    const rounds = ofKind(run, 'eigen1.qair-round').map((r) => {
      // As the explorer's QAIR table reads it: through the step's contract.
      const { data, error } = parseStepOutput('eigen1.qair-round', r.output);
      expect(error).toBeNull();
      return data!;
    });
    expect((qair.output as { rounds: { scored: string[]; corrected: string[] }[] }).rounds).toEqual(
      rounds.map((r) => ({ scored: r.scored.map((a) => a.candidate.id), corrected: r.corrected.map((c) => c.id) })),
    );
    const refined = ofKind(run, 'eigen1.refine').map((s) => (s.output as { candidate: { id: string; evidence: unknown[] } }).candidate);
    expect((ofKind(run, 'eigen1.hsr')[0].output as { candidates: string[] }).candidates).toEqual(refined.map((c) => c.id));
    // A round names its candidates without their evidence, which the steps that made them hold.
    for (const a of rounds[0].scored) {
      const made = refined.find((c) => c.id === a.candidate.id)!;
      expect({ ...a.candidate, evidence: made.evidence }).toEqual(made);
    }
    for (const e of ofKind(run, 'eigen1.evaluate'))
      expect((e.output as { assessed: { candidate: string } }).assessed.candidate).toBe((e.input as { candidate: string }).candidate);

    // A crash while the lineage was written (the last step): left running, the run queued again by recovery. The
    // lineage is made again from what the replayed stages give back.
    const [lineage] = ofKind(run, 'eigen1.lineage');
    const resumed = await resumeAfterCrashIn(id, lineage.id);
    expect(untimed(resumed.answer)).toEqual(untimed(run.answer));
    expect(stepKinds(resumed)).toEqual(stepKinds(run));
    expect(resumed.evidence.map((e) => e.id)).toEqual(run.evidence.map((e) => e.id));
    // The trace explorer's step views, the lineage made again included, show the same content.
    expect(await views(resumed)).toEqual(before);
  });
});

describe('EIGEN-1 with the monitor off (explicit RAG, Table 3)', () => {
  it('retrieves once with the question before reasoning, shows the records to every role under their heading, and watches no window', async () => {
    const { id } = await createRun({ method: 'eigen1', question: QUESTION, backend: 'offline', params: { k: 2, monitor: false } }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const [upfront] = ofKind(run, 'eigen1.explicit-rag');
    expect(upfront.parentStepId).toBeNull();
    const records = upfront.output as unknown as { id: string; text: string }[];
    expect(records.length).toBeGreaterThan(0);
    expect(ofKind(run, 'eigen1.monitor')).toHaveLength(0);
    expect(ofKind(run, 'eigen1.injection')).toHaveLength(0);
    // Proposers, correctors and refiners all write unwatched, each under its own stage.
    const generations = ofKind(run, 'eigen1.generation');
    expect(new Set(generations.map((g) => run.steps.find((s) => s.id === g.parentStepId)!.kind))).toEqual(
      new Set(['eigen1.proposer', 'eigen1.correct', 'eigen1.refine']),
    );
    for (const g of generations) expect(g.input).toMatchObject({ monitor: false, maxInjections: 0 });
    const prompt = (template: string) => (run.modelCalls.find((c) => c.template === template)!.messages as { content: string }[])[1].content;
    for (const template of ['eigen1.generate', 'eigen1.correct-reasoning', 'eigen1.refine-reasoning', 'eigen1.evaluate']) {
      const first = run.evidence.find((e) => e.id === records[0].id)!;
      expect(prompt(template)).toContain(`Retrieved for the problem before reasoning (explicit RAG):\n[${first.cite}] ${first.text}`);
    }
    const proposer = ofKind(run, 'eigen1.proposer')[0].output as { candidate: { evidence: { id: string }[] } };
    expect(proposer.candidate.evidence.map((e) => e.id)).toEqual(expect.arrayContaining(records.map((r) => r.id)));

    // The KG budget (maxInjections × queryTopK) is split across the question's entities: metformin's and PPARG's neighbourhoods both get triples.
    const retrieval = childrenOf(run, upfront).find((s) => s.kind === 'eigen1.retrieval')!;
    const split = (retrieval.output as { perEntity: { entity: string; triples: number }[] }).perEntity;
    expect(split.map((e) => e.entity).sort()).toEqual(['Metformin', 'PPARG']);
    for (const e of split) expect(e.triples).toBeGreaterThan(0);
    const topK = (upfront.input as { topK: number }).topK;
    expect(split.reduce((n, e) => n + e.triples, 0)).toBe(topK);
    const triples = records.flatMap((r) => {
      const e = run.evidence.find((x) => x.id === r.id)!;
      // The metformin–PPARG pair's own edges, read whole, add a check record where it has none: no triple.
      return e.channel === 'kg' && e.kind !== 'check' ? [e.data as unknown as TripleData] : [];
    });
    expect(triples).toHaveLength(topK);
    for (const name of ['Metformin', 'PPARG']) expect(triples.some((t) => t.sourceName === name || t.targetName === name)).toBe(true);
  });
});

describe('EIGEN-1 with a document attached to the question', () => {
  it('shows the attached passages to every proposer and answers a yes/no question from what they state', async () => {
    const text = 'Metformin reduced mortality in patients with heart failure and type 2 diabetes in a cohort of 6185 patients.';
    const { id } = await createRun(
      {
        method: 'eigen1',
        question: 'Does metformin reduce mortality in patients with heart failure?',
        documents: [{ title: 'Cohort study', text }],
        backend: 'offline',
        params: { k: 1 },
      },
      { enqueue: false },
    );
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const passage = run.evidence.find((e) => e.kind === 'passage' && e.text.includes('reduced mortality'))!;
    expect(passage.selected).toBe(true);
    const generateCall = run.modelCalls.find((c) => c.template === 'eigen1.generate')!;
    expect((generateCall.messages as { content: string }[])[1].content).toContain(`[${passage.cite}] ${passage.text}`);
    const answer = run.answer as unknown as MethodAnswer;
    expect(answer).toMatchObject({ text: 'yes', abstained: false });
    expect(answer.evidenceIds).toEqual([passage.id]);
  });
});

describe('EIGEN-1 on a multiple-choice question: the options are checked against the KG', () => {
  it("queries the question entity's relation to every option and answers the option the retrieved edge names", async () => {
    // SNCA is one of Parkinson's disease's many associated genes, and not among those its neighbourhood ranks first.
    const options = { A: 'ALB', B: 'SNCA', C: 'HBB', D: 'CFTR' };
    const question = "Which of the following genes is associated with Parkinson's disease?";
    const { id } = await createRun({ method: 'eigen1', question, options, backend: 'offline', params: { k: 2 }, switches: AIDS }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');

    // The question's own retrieval (the same stem without options) leaves SNCA out of the records it selects.
    const plain = await createRun({ method: 'eigen1', question, backend: 'offline', params: { k: 2 }, switches: AIDS }, { enqueue: false });
    await executeRun(plain.id);
    const byDefault = ofKind(await getRunRecord({ id: plain.id }), 'eigen1.retrieval');
    // Each retrieval stores its own record of the Parkinson's disease–SNCA edge.
    const isSncaEdge = (t: TripleData) => t.metaedge === 'DaG' && t.sourceName === "Parkinson's disease" && t.targetName === 'SNCA';
    const sncaRecords = new Set(run.evidence.filter((e) => e.kind === 'triple' && isSncaEdge(e.data as TripleData)).map((e) => e.id));
    expect(sncaRecords.size).toBeGreaterThan(0);
    const selected = byDefault.flatMap((s) => (s.output as { records: { text: string }[] }).records.map((r) => r.text));
    expect(selected.some((t) => /^Parkinson's disease \(Disease\) –associates→ \S+ \(Gene\)$/.test(t))).toBe(true);
    expect(selected.some((t) => /–associates→ SNCA \(Gene\)/.test(t))).toBe(false);

    for (const g of ofKind(run, 'eigen1.generation').filter((s) => (s.input as { stage: string }).stage === 'generation')) {
      const checks = (g.output as unknown as Generation).optionChecks;
      expect(checks.map((c) => c.key)).toEqual(['A', 'B', 'C', 'D']);
      for (const c of checks) expect(c.queries.some((q) => q.includes(c.option) && q.includes("Parkinson's disease"))).toBe(true);
      expect(checks.find((c) => c.key === 'B')!.evidenceIds.some((e) => sncaRecords.has(e))).toBe(true);
      expect(checks.filter((c) => c.key !== 'B').every((c) => c.evidenceIds.length === 0)).toBe(true);
    }

    // The reader's anchors and the option checks are aids, recorded as such.
    expect(new Set(ofKind(run, 'channel.aids').map((s) => (s.output as { aid: string }).aid))).toEqual(new Set(['question-reader', 'option-checks']));
    const answer = run.answer as unknown as MethodAnswer;
    expect(answer).toMatchObject({ text: 'SNCA', abstained: false });
    expect(answer.evidenceIds.some((e) => sncaRecords.has(e))).toBe(true);
  });
});

describe('EIGEN-1 on a multiple-choice question the KG backs twice', () => {
  it("grades each option's support in its optionChecks and breaks a tie on the asked relation by the options' tests, never by order", async () => {
    // Hetionet holds a Parkinson's disease –associates→ gene edge for both SNCA and INS; ALB and HBB have none.
    const question = "Which of the following genes is associated with Parkinson's disease?";
    for (const options of [
      { A: 'SNCA', B: 'INS', C: 'ALB', D: 'HBB' },
      { A: 'INS', B: 'SNCA', C: 'ALB', D: 'HBB' },
    ]) {
      const { id } = await createRun({ method: 'eigen1', question, options, backend: 'offline', params: { k: 2 }, switches: AIDS }, { enqueue: false });
      await executeRun(id);
      const run = await getRunRecord({ id });
      expect(run.status).toBe('succeeded');
      const proposals = ofKind(run, 'eigen1.generation').filter((s) => (s.input as { stage: string }).stage === 'generation');
      expect(proposals.length).toBeGreaterThan(0);
      for (const g of proposals) {
        const checks = (g.output as unknown as Generation).optionChecks;
        expect(checks.map((c) => [c.option, c.support])).toEqual([
          [options.A, 'direct'],
          [options.B, 'direct'],
          ['ALB', 'none'],
          ['HBB', 'none'],
        ]);
        for (const c of checks.filter((c) => c.support === 'direct')) {
          const edge = run.evidence.find((e) => e.id === c.directIds[0])!.data as TripleData;
          expect([edge.metaedge, edge.sourceName, edge.targetName]).toEqual(['DaG', "Parkinson's disease", c.option]);
        }
      }
      // Equal on the asked relation, the tie goes to the options' tests against the stem's entities over every
      // relation (SNCA is also down-regulated in Parkinson's disease): the same gene whichever letter it has, never the first letter.
      const answer = run.answer as unknown as MethodAnswer;
      const snca = Object.entries(options).find(([, name]) => name === 'SNCA')![0];
      expect(answer).toMatchObject({ abstained: false, optionKey: snca });
      expect(answer.rationale).toContain("options tested against the stem's entities");
    }
  });
});

describe('EIGEN-1 injection splicing over an OpenAI-compatible server', () => {
  let server: ScriptedServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('stops the stream at each flagged window, splices the aside at that offset, continues from the prefix, and stops at 2 injections', async () => {
    // Ten-character chunks; a stall keeps the connection open, so only a stop ends the first two streams.
    const stretch = (tag: string) => Array.from({ length: 9 }, (_, i) => `${tag}${i}xxxxxxx `.slice(0, 10));
    const generations = [
      reply.stream(stretch('a'), { stallAfter: 8 }),
      reply.stream(stretch('b'), { stallAfter: 8 }),
      reply.stream(['and so the answer ', 'is type 2 diabetes.']),
    ];
    const aside = (n: number) => `Wait a minute, by searching information about metformin, I found that aside ${n} holds.`;
    let asides = 0;
    server = await startScriptedOpenAIServer((request) => {
      const [system, user] = request.body.messages as { content: string }[];
      switch (system.content) {
        case generateTemplate.system:
          return generations.shift()!;
        case monitorTemplate.system:
          return reply.ok(JSON.stringify({ needsRetrieval: true, reason: 'unsure about metformin' }));
        case querierTemplate.system:
          return reply.ok(JSON.stringify({ query: 'metformin' }));
        case injectorTemplate.system: {
          const shown = [...user.content.matchAll(/^\[([0-9a-f-]{36})\]/gm)].map((m) => m[1]);
          return reply.ok(JSON.stringify({ aside: aside(++asides), usedIds: [shown[0], 'not-a-retrieved-id'] }));
        }
        default:
          return reply.status(500, { message: 'unexpected role' });
      }
    });
    const prisma = await getPrisma();
    const { row, trace, ctx } = await scriptedContext(server);
    const frame: QuestionFrame = { question: QUESTION, options: null, entities: [], optionLinks: {}, context: [], retrieved: [] };
    const spec = { stage: 'generation' as const, lane: 1, template: generateTemplate, input: { frame, proposer: 0, proposers: 1 } };
    // The generation runs inside a proposer step, as in the method; the harness proposes nothing of its own.
    let generation: Generation | null = null;
    await trace.step({ kind: 'eigen1.proposer', label: 'Proposer 1' }, async (step) => {
      generation = await monitoredGeneration(ctx, step, spec, frame);
      const solution = { answer: '', optionKey: null, items: [], count: null, abstain: true, rationale: '', claims: [] };
      return {
        candidate: { id: 'P1', lane: 1, solution, evidence: evidenceOf(generation) },
        injections: generation.injections.length,
        usage: generation.usage,
      };
    });
    const out: Generation = generation!;

    const gen = server.requests.filter((r) => r.body.messages[0].content === generateTemplate.system);
    const monitorCalls = server.requests.filter((r) => r.body.messages[0].content === monitorTemplate.system);
    // The monitor says yes to every window, yet only two asides go in; after the cap no window is reviewed.
    expect(out.injections).toHaveLength(2);
    expect(gen).toHaveLength(3);
    expect(monitorCalls).toHaveLength(2);
    expect(gen.map((r) => r.closedEarly)).toEqual([true, true, false]);
    // A window is a slice of a stream still being written: the monitor and the querier are told so, with its length, so its cut edges read as edges.
    const querierCalls = server.requests.filter((r) => r.body.messages[0].content === querierTemplate.system);
    for (const r of [...monitorCalls, ...querierCalls]) {
      const window = /"{3}\n([\s\S]*?)\n"{3}/.exec(r.body.messages[1].content)![1];
      expect(r.body.messages[1].content).toContain(
        `Text (a ${window.length}-character window of the reasoning as it streams: it may begin and end mid-sentence`,
      );
    }

    const [first, second] = out.injections;
    const firstText = stretch('a').join('').slice(0, 60);
    const secondText = stretch('b').join('').slice(0, 60);
    expect(first.spliceOffset).toBe(60);
    // The stream text ends in a space, so the aside needs no separator before it.
    expect(first.splice).toBe(`${aside(1)} `);
    expect(second.spliceOffset).toBe(60 + first.splice.length + 60);
    expect(out.text).toBe(firstText + first.splice + secondText + second.splice + 'and so the answer is type 2 diabetes.');
    expect(out.segments).toEqual([
      { source: 'model', start: 0, end: 60, call: 0 },
      { source: 'injected', start: 60, end: 60 + first.splice.length, call: null },
      { source: 'model', start: 60 + first.splice.length, end: second.spliceOffset, call: 1 },
      { source: 'injected', start: second.spliceOffset, end: second.spliceOffset + second.splice.length, call: null },
      { source: 'model', start: second.spliceOffset + second.splice.length, end: out.text.length, call: 2 },
    ]);
    expect(out.windows).toEqual([
      { start: 0, end: 60, needsRetrieval: true, reason: 'unsure about metformin', spliced: true },
      { start: 60 + first.splice.length, end: 60 + first.splice.length + 60, needsRetrieval: true, reason: 'unsure about metformin', spliced: true },
    ]);

    // Each continuation request is the same conversation plus the text so far, asides included, as the assistant prefix.
    expect(gen[1].body.messages.slice(0, 2)).toEqual(gen[0].body.messages);
    expect(gen[1].body.messages.at(-1)).toEqual({ role: 'assistant', content: firstText + first.splice });
    expect(gen[2].body.messages.at(-1)).toEqual({ role: 'assistant', content: firstText + first.splice + secondText + second.splice });

    // The asides may cite only what was retrieved, and what they cite becomes the proposer's evidence.
    expect(first.usedIds).toEqual([first.retrieved[0].id]);
    expect(out.evidence.map((e) => e.id).sort()).toEqual([...new Set([first.retrieved[0].id, second.retrieved[0].id])].sort());
    const stored = await prisma.evidence.findMany({ where: { runId: row.id, id: { in: first.retrieved.map((r) => r.id) } } });
    expect(stored.every((e) => e.selected)).toBe(true);

    const steps = await prisma.step.findMany({ where: { runId: row.id }, orderBy: { ordinal: 'asc' } });
    const generationStep = steps.find((s) => s.kind === 'eigen1.generation')!;
    const calls = await prisma.modelCall.findMany({ where: { stepId: generationStep.id }, orderBy: { ordinal: 'asc' } });
    expect(calls.map((c) => c.template)).toEqual(['eigen1.generate', 'eigen1.generate', 'eigen1.generate']);
    // The aids are off: each retrieval reads the neighbourhood of the entities linked in its query, as the paper's, and no aid acts.
    expect(steps.some((s) => s.kind === 'channel.aids')).toBe(false);
    expect(steps.filter((s) => s.parentStepId === generationStep.id).map((s) => s.label)).toEqual([
      'Monitor window 0–60',
      'Injection 1',
      `Monitor window ${60 + first.splice.length}–${120 + first.splice.length}`,
      'Injection 2',
    ]);
  });
});

describe('EIGEN-1 monitored retrieval in a refinement stage, over an OpenAI-compatible server', () => {
  let server: ScriptedServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it("HSR: an uncertainty trigger in the refiner's stream is detected, queried, retrieved and injected, and the refined solution may cite it", async () => {
    const unsure = [
      'I am not sure ',
      'which diseases ',
      'metformin treats; ',
      'I need that ',
      'fact first. ',
      'Then the ',
      'anchor can ',
      'be repaired ',
      'properly. ',
    ];
    const aside =
      'Wait a minute, by searching information about metformin, I found that it treats a disease. Now that I have more relevant information, I can continue my reasoning.';
    server = await startScriptedOpenAIServer((request) => {
      const messages = request.body.messages as { role: string; content: string }[];
      const [system, user] = messages;
      switch (system.content) {
        case refineReasoningTemplate.system:
          // The first stream stalls after its uncertain stretch, so only the monitor's stop ends it; the continuation finishes.
          return messages.at(-1)!.role === 'assistant' ? reply.stream(['So the anchor ', 'is repaired.']) : reply.stream(unsure, { stallAfter: 8 });
        case monitorTemplate.system:
          return reply.ok(JSON.stringify({ needsRetrieval: /not sure/.test(user.content), reason: 'unsure which diseases metformin treats' }));
        case querierTemplate.system:
          return reply.ok(JSON.stringify({ query: 'metformin' }));
        case injectorTemplate.system: {
          const shown = [...user.content.matchAll(/^\[([0-9a-f-]{36})\]/gm)].map((m) => m[1]);
          return reply.ok(JSON.stringify({ aside, usedIds: [shown[0]] }));
        }
        case refineTemplate.system: {
          const retrieved = /Evidence retrieved during your reasoning:\n\[([0-9a-f-]{36})\]/.exec(user.content)![1];
          const solution: Solution = {
            answer: 'type 2 diabetes mellitus',
            optionKey: null,
            items: [],
            count: null,
            abstain: false,
            rationale: 'From the retrieved fact.',
            claims: [{ text: 'metformin treats it', evidenceIds: [retrieved] }],
          };
          return reply.ok(JSON.stringify(solution));
        }
        default:
          return reply.status(500, { message: `unexpected role: ${system.content.slice(0, 40)}` });
      }
    });
    const { row, trace, ctx } = await scriptedContext(
      server,
      new EmbeddingSimilarity(new EmbeddingClient({ baseUrl: server.baseUrl, model: 'emb-eigen1', cache: null })),
    );
    const frame: QuestionFrame = { question: QUESTION, options: null, entities: [], optionLinks: {}, context: [], retrieved: [] };
    const abstained: Solution = { answer: '', optionKey: null, items: [], count: null, abstain: true, rationale: 'No facts.', claims: [] };
    const candidates = [1, 2].map((lane) => ({ id: `C${lane}`, lane, solution: abstained, evidence: [] }));
    const lineage = new Lineage();
    for (const c of candidates) lineage.add({ id: c.id, stage: 'correction', lane: c.lane, answer: '', abstained: true });

    const refined = await refineHierarchically(ctx, frame, candidates, lineage);

    // Each anchor's refinement streamed its reasoning under the monitor, which caught the trigger and had an aside spliced in.
    const { steps } = await readTrace(row.id);
    const under = (parentId: string) => steps.filter((s) => s.parentStepId === parentId);
    const refines = steps.filter((s) => s.kind === 'eigen1.refine');
    expect(refines).toHaveLength(2);
    for (const refine of refines) {
      const [generation] = under(refine.id).filter((s) => s.kind === 'eigen1.generation');
      expect(generation.input).toMatchObject({ stage: 'refinement', template: 'eigen1.refine-reasoning', monitor: true, querier: true, injector: true });
      const triggers = under(generation.id);
      expect(triggers.map((s) => s.kind)).toEqual(['eigen1.monitor', 'eigen1.injection']);
      expect(under(triggers[1].id).map((s) => s.kind)).toEqual(['eigen1.querier', 'eigen1.retrieval', 'eigen1.injector']);
      // The KG candidates rank by the embedding endpoint's similarity to the query, as the paper's RAG database is queried.
      const stored = await readTrace(row.id);
      const retrieval = stored.steps.find((s) => s.id === under(triggers[1].id)[1].id)!.output as unknown as {
        query: string;
        similarity: SimilarityUse;
        ranking: { id: string; sim: number }[];
      };
      expect(retrieval.similarity.kind).toBe('embedding:emb-eigen1');
      expect(retrieval.ranking.length).toBeGreaterThan(0);
      const texts = new Map(stored.evidence.map((e) => [e.id, e.text]));
      const served = (t: string) => Float32Array.from(bagOfWordsVector(t));
      for (const r of retrieval.ranking) expect(r.sim).toBeCloseTo(vectorCosine(served(retrieval.query), served(texts.get(r.id)!)), 2);
      const out = generation.output as unknown as Generation;
      expect(out.injections).toHaveLength(1);
      expect(out.injections[0]).toMatchObject({ query: 'metformin', queryBy: 'querier', writtenBy: 'injector', aside });
      expect(out.text).toContain(aside);
    }
    const reasoningRequests = server.requests.filter((r) => r.body.messages?.[0].content === refineReasoningTemplate.system);
    // Per anchor: the stream the monitor stopped, then its continuation with the aside as part of the assistant prefix.
    expect(reasoningRequests.map((r) => r.closedEarly).sort()).toEqual([false, false, true, true]);
    for (const r of reasoningRequests.filter((x) => x.body.messages.at(-1).role === 'assistant')) expect(r.body.messages.at(-1).content).toContain(aside);

    // The statement reads the reasoning, and the refined candidate may cite what the refiner's stream retrieved.
    for (const c of refined.candidates) {
      expect(c.solution).toMatchObject({ abstain: false, answer: 'type 2 diabetes mellitus' });
      const cited = c.solution.claims[0].evidenceIds;
      expect(cited).toHaveLength(1);
      expect(c.evidence.map((e) => e.id)).toContain(cited[0]);
    }
    const statement = server.requests.find((r) => r.body.messages?.[0].content === refineTemplate.system)!;
    expect(statement.body.messages[1].content).toContain(aside);
    // The stated rationale is read later by the evaluator and the ranker without the anchor or the students: the schema asks for one that stands alone.
    const rationale = JSON.stringify(statement.body).match(/"rationale":\{[^}]*"description":"((?:[^"\\]|\\.)*)"/)![1];
    expect(rationale).toMatch(/never about an anchor, other solutions/);
    expect(refined.usage.filter((u) => u.stage === 'injector')).toHaveLength(2);
  });
});
