import type { DocSearchResult } from '@/lib/channels/doc';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Channels, FULL_SWITCHES } from '@/lib/channels';
import { closeDb, getPool, getPrisma } from '@/lib/db/client';
import { ModelClient } from '@/lib/llm/client';
import { PrismaEmbeddingCache } from '@/lib/llm/store';
import { EmbeddingClient } from '@/lib/llm/embeddings';
import { lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { normalise } from '@/lib/llm/offline/text';
import { OpenAIBackend } from '@/lib/llm/openai-backend';
import { bioweave } from '@/lib/methods/bioweave';
import type { RefinedGraph } from '@/lib/methods/bioweave/graph';
import type { OperatorCheck } from '@/lib/methods/bioweave/operator';
import { BioWeaveParamsSchema, type BioWeaveParams } from '@/lib/methods/bioweave/params';
import type { Plan, Source } from '@/lib/methods/bioweave/plan';
import type { RoundPlan } from '@/lib/methods/bioweave/round';
import type { RepairDecision } from '@/lib/methods/bioweave/stages/repair';
import type { SelectionOutcome } from '@/lib/methods/bioweave/stages/select';
import type { RankedPath } from '@/lib/methods/bioweave/stages/structured';
import { answerTemplate, convertTemplate, initTemplate, selectTemplate } from '@/lib/methods/bioweave/templates';
import type { Staged, StageUsage } from '@/lib/methods/bioweave/usage';
import type { Unit } from '@/lib/methods/bioweave/units';
import { kgUnitOf, type StoredKgUnit } from '@/lib/methods/bioweave/subgraph';
import { compareUnits, crossVerify, type ScoringTable } from '@/lib/methods/bioweave/verify';
import type { MethodAnswer, MethodContext } from '@/lib/methods/types';
import { explainAnswer } from '@/lib/runs/answer-explanation';
import type { RunRecord } from '@/lib/runs/read';
import { newShareId } from '@/lib/runs/share-id';
import { unpackBodies } from '@/lib/trace/codec';
import { readTrace } from '@/lib/trace/store';
import { TraceRecorder } from '@/lib/trace/recorder';
import type { TripleData } from '@/lib/trace/types';
import { EmbeddingSimilarity, LEXICAL_WHY, LexicalSimilarity, vectorCosine } from '@/lib/llm/similarity';
import { bagOfWordsVector, reply, setScriptedModelEnv, startScriptedOpenAIServer, type ScriptedServer } from '../support/scripted-openai-server';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord } from '@/lib/runs/read';
import { createRun } from '@/lib/runs/service';
import { resumeAfterCrashIn, runToSuccess, stepKinds, untimed } from '../support/runs';

afterAll(closeDb);

type Step = RunRecord['steps'][number];
const ofKind = (run: RunRecord, kind: string) => run.steps.filter((s) => s.kind === kind);
const childrenOf = (run: RunRecord, parent: Step) => run.steps.filter((s) => s.parentStepId === parent.id);
const out = <T>(step: Step) => (step.output as unknown as Staged<T>).output;
const answerOf = (run: RunRecord) => run.answer as unknown as MethodAnswer;
const evidenceKinds = (run: RunRecord) => new Set(run.evidence.map((e) => e.kind));

const runBioWeave = (body: Record<string, unknown>) => runToSuccess({ method: 'bioweave', ...body });

async function nodeId(name: string, kind: string): Promise<string> {
  const { rows } = await getPool().query<{ id: string }>('select id from nodes where name = $1 and kind = $2', [name, kind]);
  return rows[0].id;
}

/** Names of the nodes joined to every anchor by the metaedge (either stored direction): the KG's own answer. */
async function sharedNames(anchors: { id: string; metaedge: string }[], kind: string): Promise<string[]> {
  const sets = await Promise.all(
    anchors.map(async (a) => {
      const { rows } = await getPool().query<{ name: string }>(
        `select n.name from edges e join nodes n on n.id = case when e.source_id = $1 then e.target_id else e.source_id end
          where (e.source_id = $1 or e.target_id = $1) and e.metaedge = $2 and n.kind = $3`,
        [a.id, a.metaedge, kind],
      );
      return new Set(rows.map((r) => r.name));
    }),
  );
  return [...sets[0]].filter((n) => sets.every((s) => s.has(n))).sort();
}

const sorted = (names: string[]) => [...names].sort();
const defaults = BioWeaveParamsSchema.parse({});

describe('BioWeave offline: shared neighbour, end to end on Hetionet', () => {
  const QUESTION = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
  let run: RunRecord;
  let gold: string[];

  beforeAll(async () => {
    run = await runBioWeave({ question: QUESTION });
    gold = await sharedNames(
      [
        { id: await nodeId('multiple sclerosis', 'Disease'), metaedge: 'DaG' },
        { id: await nodeId("Crohn's disease", 'Disease'), metaedge: 'DaG' },
      ],
      'Gene',
    );
  });

  it('initialises with mentions, candidate entities, the operator, a source plan inside the switches and the hops', () => {
    const [init] = ofKind(run, 'bioweave.init');
    const { plan, frame } = out<{ plan: Plan; frame: { entities: { name: string }[] } }>(init);
    expect(frame.entities.map((e) => e.name)).toEqual(expect.arrayContaining(['multiple sclerosis', "Crohn's disease"]));
    expect(plan).toMatchObject({ operator: 'shared_neighbor', answerType: 'entity_list', answerKind: 'Gene' });
    expect(plan.constraints.map((c) => c.hops.map((h) => h.metaedges[0]))).toEqual([['DaG'], ['DaG']]);
    expect(plan.sourcePlan).toEqual(['kg', 'doc', 'web']);
    expect(run.modelCalls.find((c) => c.stepId === init.id)!.template).toBe('bioweave.init');
    expect((run.config as { params: BioWeaveParams }).params).toEqual(defaults);
  });

  it('answers with exactly the genes the KG associates with both diseases, every claim cited to a DaG path', () => {
    const answer = answerOf(run);
    expect(answer.abstained).toBe(false);
    expect(gold.length).toBeGreaterThan(5);
    expect(sorted(answer.items!)).toEqual(gold);
    const byId = new Map(run.evidence.map((e) => [e.id, e]));
    for (const claim of answer.claims) {
      expect(claim.evidenceIds.length).toBeGreaterThan(0);
      const hops = claim.evidenceIds.flatMap((id) => (byId.get(id)!.data as { hops: TripleData[] }).hops);
      expect(hops.some((t) => t.metaedge === 'DaG' && t.targetName === claim.text)).toBe(true);
    }
    expect(answer.extra).toMatchObject({ needsRepair: false, missingHop: null, operatorSatisfied: true, rounds: 1 });
  });

  it('records a round: plan and frontier, KG paths with subgraph and per-depth rank terms, text spans and units, scoring, selection, refined graph, operator check, repair decision', () => {
    const [round] = ofKind(run, 'bioweave.round');
    expect(childrenOf(run, round).map((s) => s.kind)).toEqual([
      'bioweave.plan',
      'bioweave.kg',
      'bioweave.doc',
      'bioweave.web',
      ...(ofKind(run, 'bioweave.convert').length ? ['bioweave.convert'] : []),
      'bioweave.verify',
      'bioweave.select',
      'bioweave.refine',
      'bioweave.operator',
      'bioweave.repair',
    ]);
    const plan = ofKind(run, 'bioweave.plan')[0].output as unknown as RoundPlan & { frontier: Record<string, string[]> };
    expect(plan.frontier).toEqual({ 'c1.h1': ['multiple sclerosis'], 'c2.h1': ["Crohn's disease"] });

    const [kg] = ofKind(run, 'bioweave.kg');
    const channelSteps = childrenOf(run, kg).filter((s) => s.kind === 'channel.kg');
    expect(channelSteps.map((s) => s.label)).toEqual(['KG paths', 'KG typed expansion']);
    const paths = run.evidence.filter((e) => e.kind === 'path');
    expect(paths.length).toBeLessThanOrEqual(defaults.rawPathCap);
    const [subgraph] = ofKind(run, 'bioweave.subgraph');
    // Both searches were typed by the plan, so pruning finds nothing to remove.
    expect(subgraph.output).toMatchObject({ droppedPaths: 0, prunedNodes: [], prunedEdges: [] });
    expect((subgraph.output as { before: object; after: object }).before).toEqual((subgraph.output as { after: object }).after);
    const { depths } = ofKind(run, 'bioweave.paths')[0].output as unknown as { depths: { depth: number; paths: RankedPath[] }[] };
    const ranked = depths.flatMap((d) => d.paths);
    expect(ranked.length).toBe(paths.length);
    for (const p of ranked) {
      const t = p.terms;
      expect(p.score).toBeCloseTo((t.entityCoverage + t.relationCompatibility + t.missingHopCoverage + t.operatorConsistency) / 4, 12);
    }
    // Paths through a shared gene meet both chains: full coverage and operator fit; one-sided expansion paths do not.
    const shared = ranked.filter((p) => p.origin === 'bidirectional');
    expect(shared).toHaveLength(gold.length);
    for (const p of shared) expect(p.terms).toMatchObject({ entityCoverage: 1, relationCompatibility: 1, operatorConsistency: 1 });
    for (const p of ranked.filter((p) => p.origin === 'expansion')) expect(p.terms.entityCoverage).toBe(0.5);
  });

  it("stores each KG path once: the KG step's units reference their channel steps' path records, and make the ranked paths again from them", async () => {
    const [kg] = ofKind(run, 'bioweave.kg');
    const retrieved = new Set(
      childrenOf(run, kg)
        .filter((s) => s.kind === 'channel.kg')
        .map((s) => s.id),
    );
    const ranked = new Map(
      ofKind(run, 'bioweave.paths').flatMap((s) => (s.output as { depths: { paths: RankedPath[] }[] }).depths.flatMap((d) => d.paths.map((p) => [p.id, p]))),
    );
    const units = out<{ units: StoredKgUnit[] }>(kg).units;
    expect(units.length).toBeGreaterThan(0);
    for (const stored of units) {
      expect(stored.paths.map((r) => r.id)).toEqual(stored.provenance);
      for (const record of stored.paths)
        expect(record).toMatchObject({ kind: 'path', channel: 'kg', stepId: expect.toSatisfy((id: string) => retrieved.has(id)) });
      const unit = kgUnitOf(stored);
      for (const [i, path] of unit.paths.entries()) {
        const data = stored.paths[i].data as { nodes: { id: string }[]; hops: TripleData[]; metapath: string };
        expect(path.nodes.map((n) => n.nodeId)).toEqual(data.nodes.map((n) => n.id));
        expect(path.triples).toEqual(data.hops);
        expect(path.metapath).toBe(unit.predicate);
        expect(path.nodes.map((n) => n.name).join(' → ')).toBe(ranked.get(path.id)!.text);
      }
    }
    // As stored, the step's output holds references to the records, not their nodes and triples again.
    const { rows } = await getPool().query<{ body: Buffer }>('select body from trace_packs where run_id = $1', [run.id]);
    const stored = rows.map((r) => JSON.stringify(unpackBodies(r.body).steps.get(kg.ordinal)?.output ?? null)).join('');
    expect(stored).toContain('"$evs"');
    expect(stored).not.toContain('"triples"');
  });

  it('keeps a scoring table that recomputes from its rows with the paper formulas, and selects at most K of the top W2', () => {
    const [verify] = ofKind(run, 'bioweave.verify');
    const table = out<ScoringTable>(verify);
    const p = defaults;
    expect(table.similarity).toMatchObject({ kind: 'lexical', why: 'offline engine: no embedding endpoint' });
    const topics = new Set(table.topicIds);
    // V(G_q): every node on a KG path this run retrieved (nothing was pruned).
    const graphNodes = new Set(run.evidence.filter((e) => e.kind === 'path').flatMap((e) => (e.data as { nodes: { id: string }[] }).nodes.map((n) => n.id)));
    expect(out<{ units: unknown[] }>(ofKind(run, 'bioweave.kg')[0]).units.length).toBeGreaterThan(0);
    for (const row of table.rows) {
      expect(row.cos).toBeCloseTo(lexicalSimilarity(QUESTION, row.text), 12);
      const inter = row.entities.filter((id) => topics.has(id)).length;
      const union = new Set([...row.entities, ...topics]).size;
      expect(row.jaccard).toBeCloseTo(union ? inter / union : 0, 12);
      expect(row.sRel).toBeCloseTo(0.7 * row.cos + 0.3 * row.jaccard, 12);
    }
    // The pool: s_rel order, at most W1 and at most 10 per source.
    const bySRel = [...table.rows].sort((a, b) => b.sRel - a.sRel);
    const taken = new Map<string, number>();
    const pool: typeof table.rows = [];
    for (const row of bySRel) {
      if (pool.length < p.w1 && (taken.get(row.source) ?? 0) < p.perSource) {
        pool.push(row);
        taken.set(row.source, (taken.get(row.source) ?? 0) + 1);
      }
    }
    expect(new Set(table.rows.filter((r) => r.inPool).map((r) => r.unitId))).toEqual(new Set(pool.map((r) => r.unitId)));
    const prior: Record<Source, number> = { kg: 1.0, doc: 0.8, web: 0.7 };
    for (const row of pool) {
      const supporters = pool.filter((o) => o !== row && lexicalSimilarity(row.text, o.text) >= 0.75);
      const supp = new Set(supporters.map((o) => o.source));
      expect(new Set(row.supp)).toEqual(supp);
      expect(row.rPrior).toBe(prior[row.source]);
      expect(row.rSup).toBeCloseTo(Math.min(supp.size, 3) / 3, 12);
      expect(row.rKg).toBeCloseTo(row.entities.filter((id) => graphNodes.has(id)).length / Math.max(1, row.entities.length), 12);
      expect(row.sVer).toBeCloseTo((row.rPrior! + row.rSup! + row.rKg!) / 3, 12);
      expect(row.sCross).toBeCloseTo(0.7 * row.sRel + 0.3 * row.sVer!, 12);
    }
    const top = [...pool]
      .sort((a, b) => b.sCross! - a.sCross!)
      .slice(0, p.w2)
      .map((r) => r.unitId);
    expect(table.top).toEqual(top);

    const selection = out<SelectionOutcome>(ofKind(run, 'bioweave.select')[0]);
    expect(selection.selected.length).toBeGreaterThan(0);
    expect(selection.selected.length).toBeLessThanOrEqual(p.k);
    for (const s of selection.selected) expect(table.top).toContain(s.id);
    expect(selection.selected.map((s) => s.id)).toContain('kg:DaG-DaG:multiple-sclerosis:Crohn-s-disease');
    // Every id a prompt shows is one token a model copies whole: no space, `|`, `@` or `→`.
    const selectPrompt = (run.modelCalls.find((c) => c.role === 'select')!.messages as { content: string }[])[1].content;
    const shownIds = [...selectPrompt.matchAll(/^\[([^\]]+)\] s_cross=/gm)].map((m) => m[1]);
    expect(shownIds.length).toBeGreaterThan(0);
    for (const id of [...table.rows.map((r) => r.unitId), ...shownIds]) expect(id).toMatch(/^[^\s|@→]+$/);
    for (const e of run.evidence.filter((x) => x.kind === 'unit')) expect(e.ref).toMatch(/^[^\s|@→]+$/);
  });

  it('refines into an evidence graph whose nodes and edges carry their sources, and checks the operator on it', () => {
    const graph = out<RefinedGraph>(ofKind(run, 'bioweave.refine')[0]);
    expect(graph.nodes.length).toBeGreaterThan(gold.length);
    for (const n of graph.nodes) expect(n.sources.length).toBeGreaterThan(0);
    for (const e of graph.edges) {
      if (e.origin === 'kg') expect(e.sources).toContain('kg');
      else expect(e.sources.some((s) => s === 'doc' || s === 'web')).toBe(true);
      expect(e.evidenceIds.length).toBeGreaterThan(0);
    }
    expect(graph.paths.length).toBeGreaterThanOrEqual(gold.length);
    const check = out<OperatorCheck>(ofKind(run, 'bioweave.operator')[0]);
    expect(check).toMatchObject({ satisfied: true, missingHops: [] });
    expect(sorted(check.answers.map((a) => a.name))).toEqual(gold);
    expect(out<RepairDecision>(ofKind(run, 'bioweave.repair')[0]).decision).toBe('answer');
  });

  it('reports calls, tokens and time per stage, matching the recorded calls', () => {
    const usage = answerOf(run).extra!.usage as { stages: StageUsage[]; calls: number };
    const calls = (stage: string) => usage.stages.find((s) => s.stage === stage)?.calls ?? 0;
    expect(usage.calls).toBe(run.modelCalls.length);
    expect(usage.calls).toBeLessThanOrEqual(9);
    expect(calls('initialise')).toBe(1);
    expect(calls('select')).toBe(1);
    expect(calls('answer')).toBe(1);
    expect(calls('verify')).toBe(0);
    for (const s of usage.stages) {
      expect(s.ms).toBeGreaterThanOrEqual(0);
      if (s.calls) expect(s.tokensIn).toBeGreaterThan(0);
    }
  });
});

describe('BioWeave offline: other operators and phrasings, answers checked against the KG', () => {
  it.each([
    "How many genes are associated with both multiple sclerosis and Crohn's disease?",
    "Count the genes that both multiple sclerosis and Crohn's disease are associated with.",
  ])('counts distinct normalised answer entities: %s', async (question) => {
    const run = await runBioWeave({ question });
    const gold = await sharedNames(
      [
        { id: await nodeId('multiple sclerosis', 'Disease'), metaedge: 'DaG' },
        { id: await nodeId("Crohn's disease", 'Disease'), metaedge: 'DaG' },
      ],
      'Gene',
    );
    const answer = answerOf(run);
    expect(out<{ plan: Plan }>(ofKind(run, 'bioweave.init')[0]).plan.operator).toBe('count');
    expect(answer).toMatchObject({ text: String(gold.length), count: gold.length, abstained: false });
    expect(new Set(answer.items!.map(normalise)).size).toBe(gold.length);
    expect(answer.extra!.countCheck).toEqual({ stated: gold.length, items: gold.length, distinct: gold.length });
  });

  it('follows a two-hop chain with typed expansion: diseases treated by compounds that bind PPARG', async () => {
    const run = await runBioWeave({ question: 'Which diseases are treated by compounds that bind PPARG?' });
    const pparg = await nodeId('PPARG', 'Gene');
    const { rows } = await getPool().query<{ name: string }>(
      `select distinct d.name from edges b join edges t on t.source_id = b.source_id and t.metaedge = 'CtD' join nodes d on d.id = t.target_id
        where b.metaedge = 'CbG' and b.target_id = $1`,
      [pparg],
    );
    expect(out<{ plan: Plan }>(ofKind(run, 'bioweave.init')[0]).plan.operator).toBe('chain');
    expect(sorted(answerOf(run).items!)).toEqual(sorted(rows.map((r) => r.name)));
    // Only the chain's first hop starts at PPARG; the second starts at the compounds the first reached, each metaedge in its own direction.
    const hops = (run.modelCalls.find((c) => c.role === 'select')!.messages as { content: string }[])[1].content
      .split('Hops:\n')[1]
      .split('\n\n')[0]
      .split('\n');
    expect(hops).toEqual([
      expect.stringMatching(/^c1\.h1: PPARG \(Gene\) → Compound via CbG \(Compound → Gene\)/),
      expect.stringMatching(/^c1\.h2: each Compound the previous hop reached → Disease via CtD \(Compound → Disease\)/),
    ]);
    const { depths } = ofKind(run, 'bioweave.paths')[0].output as unknown as { depths: { depth: number; paths: RankedPath[] }[] };
    expect(depths.map((d) => d.depth)).toEqual([1, 2]);
    // A compound is half the chain; a disease behind it is the whole chain.
    for (const p of depths[0].paths) expect(p.terms.operatorConsistency).toBe(0.5);
    for (const p of depths[1].paths) expect(p.terms.operatorConsistency).toBe(1);
  });

  it('intersects two different constraints: compounds that treat type 2 diabetes and bind PPARG', async () => {
    const run = await runBioWeave({ question: 'List the compounds that treat type 2 diabetes mellitus and bind PPARG.' });
    const gold = await sharedNames(
      [
        { id: await nodeId('type 2 diabetes mellitus', 'Disease'), metaedge: 'CtD' },
        { id: await nodeId('PPARG', 'Gene'), metaedge: 'CbG' },
      ],
      'Compound',
    );
    expect(out<{ plan: Plan }>(ofKind(run, 'bioweave.init')[0]).plan.operator).toBe('intersection');
    expect(sorted(answerOf(run).items!)).toEqual(gold);
  });

  it.each([
    ['Is PPARG associated with type 2 diabetes mellitus?', 'type 2 diabetes mellitus'],
    ['Is PPARG associated with multiple sclerosis?', 'multiple sclerosis'],
  ])('decides a yes/no claim from the KG: %s', async (question, disease) => {
    const run = await runBioWeave({ question });
    const { rows } = await getPool().query('select 1 from edges where metaedge = $1 and source_id = $2 and target_id = $3', [
      'DaG',
      await nodeId(disease, 'Disease'),
      await nodeId('PPARG', 'Gene'),
    ]);
    const answer = answerOf(run);
    expect(answer.text).toBe(rows.length ? 'yes' : 'no');
    expect(answer.evidenceIds.length).toBeGreaterThan(0);
  });

  it('answers a multiple-choice question with the option the graph supports', async () => {
    const run = await runBioWeave({ question: 'Which gene is associated with multiple sclerosis?', options: { A: 'PPARG', B: 'TNF', C: 'BRCA1', D: 'INS' } });
    const gold = await sharedNames([{ id: await nodeId('multiple sclerosis', 'Disease'), metaedge: 'DaG' }], 'Gene');
    const answer = answerOf(run);
    expect(['PPARG', 'TNF', 'BRCA1', 'INS'].filter((g) => gold.includes(g))).toEqual([answer.text]);
    expect(answer.optionKey).toBe('B');
  });
});

describe('BioWeave offline: a PubMedQA-style question with an attached document', () => {
  it("answers from the document's evidence units through the doc channel, units never asserting KG facts", async () => {
    const text = 'Metformin reduced mortality in patients with heart failure and type 2 diabetes in a cohort of 6185 patients. Sulfonylureas did not.';
    const run = await runBioWeave({
      question: 'Does metformin reduce mortality in patients with heart failure?',
      documents: [{ title: 'Cohort study', text }],
    });
    const answer = answerOf(run);
    expect(answer).toMatchObject({ text: 'yes', abstained: false });
    const cited = run.evidence.filter((e) => answer.evidenceIds.includes(e.id));
    expect(cited.length).toBeGreaterThan(0);
    for (const unit of cited) {
      expect(unit).toMatchObject({ kind: 'unit', channel: 'doc', selected: true });
      expect(unit.text).toContain('Metformin reduced mortality');
      const data = unit.data as { sourceEvidenceId: string; span: { start: number; end: number }; assertsKgFact: boolean; entities: { name: string }[] };
      expect(data.assertsKgFact).toBe(false);
      expect(data.entities.map((e) => e.name)).toContain('Metformin');
      const passage = run.evidence.find((e) => e.id === data.sourceEvidenceId)!;
      expect(passage.kind).toBe('passage');
      expect(passage.text.slice(data.span.start, data.span.end)).toBe(unit.text);
      expect(ofKind(run, 'channel.doc').find((s) => s.id === passage.stepId)!.label).toBe('Attached documents');
    }
    expect(answer.extra!.supportingSources).toEqual(['doc']);
  });
});

describe('BioWeave offline: text that restates KG edges', () => {
  it('marks the KG edges and paths the text corroborates, keeps text claims off the KG, and converts a repeated sentence once', async () => {
    const text = "Genome-wide studies show that TNF is associated with multiple sclerosis and with Crohn's disease.";
    const run = await runBioWeave({
      question: "Which genes are associated with both multiple sclerosis and Crohn's disease?",
      documents: [
        { title: 'GWAS overlap', text },
        { title: 'GWAS overlap (copy)', text },
      ],
    });
    const units = run.evidence.filter((e) => e.kind === 'unit' && e.text === text);
    expect(units).toHaveLength(1);
    const [unit] = units;
    const data = unit.data as { sourceEvidenceId: string; alsoIn: string[] };
    // The copy attached here, and any copy earlier runs left in the corpus that search found.
    expect(data.alsoIn.length).toBeGreaterThanOrEqual(1);
    for (const id of data.alsoIn) expect(run.evidence.find((e) => e.id === id)).toMatchObject({ kind: 'passage', text: expect.stringContaining(text) });

    const graph = out<RefinedGraph>(ofKind(run, 'bioweave.refine')[0]);
    const tnf = await nodeId('TNF', 'Gene');
    const restated = graph.edges.filter((e) => e.targetId === tnf && e.metaedge === 'DaG');
    expect(restated).toHaveLength(2);
    for (const e of restated) {
      expect(e).toMatchObject({ origin: 'kg', sources: ['kg', 'doc'], corroboratedBy: [{ unitId: unit.id, how: 'predicate' }] });
      for (const id of e.evidenceIds) expect(run.evidence.find((r) => r.id === id)!.kind).toBe('path');
    }
    const throughTnf = graph.paths.filter((p) => p.edgeKeys.some((k) => restated.some((e) => e.key === k)));
    expect(throughTnf.length).toBeGreaterThan(0);
    expect(throughTnf.every((p) => p.corroborated)).toBe(true);
    // A relation only text states stays a text edge citing its unit.
    for (const e of graph.edges.filter((e) => !e.sources.includes('kg'))) {
      expect(e.origin).toBe('text');
      for (const id of e.evidenceIds) expect(run.evidence.find((r) => r.id === id)!.kind).toBe('unit');
    }
    expect(answerOf(run).items).toContain('TNF');
  });
});

describe('BioWeave offline with the aids on', () => {
  it('the answer-set aid puts the complete set beside the refined graph: a list over two constraints is the whole meeting, cited to the set', async () => {
    const question = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
    const run = await runBioWeave({ question, switches: { aids: true } });
    const [set] = run.evidence.filter((e) => e.kind === 'set');
    expect(set.channel).toBe('aids');
    expect(ofKind(run, 'channel.aids').map((s) => (s.output as { aid: string }).aid)).toEqual(['answer-set']);
    const extra = (run.answer as { extra: { deviations: string[]; aids: { aid: string; evidenceIds: string[] }[] } }).extra;
    expect(extra.aids).toEqual([{ aid: 'answer-set', evidenceIds: [set.id] }]);
    expect(extra.deviations).toContainEqual(expect.stringMatching(/^Hopscope aid on \(not in the paper\): answer-set: /));
    // The set is the KG's whole meeting of the two diseases' genes, and the answer lists exactly its members.
    const [ms, crohn] = [await nodeId('multiple sclerosis', 'Disease'), await nodeId("Crohn's disease", 'Disease')];
    const { rows } = await getPool().query<{ name: string }>(
      "select g.name from nodes g where g.kind = 'Gene' and exists (select 1 from edges e where e.metaedge = 'DaG' and e.source_id = $1 and e.target_id = g.id) and exists (select 1 from edges e where e.metaedge = 'DaG' and e.source_id = $2 and e.target_id = g.id)",
      [ms, crohn],
    );
    expect([...answerOf(run).items!].sort()).toEqual(rows.map((r) => r.name).sort());
    const graph = out<{ sets?: { id: string; count: number }[] }>(ofKind(run, 'bioweave.refine').at(-1)!);
    expect(graph.sets?.map((s) => [s.id, s.count])).toEqual([[set.id, rows.length]]);
  });

  it('with the aids off, no aid acts', async () => {
    const run = await runBioWeave({ question: "Which genes are associated with both multiple sclerosis and Crohn's disease?" });
    expect(ofKind(run, 'channel.aids')).toHaveLength(0);
    expect(run.evidence.some((e) => e.channel === 'aids')).toBe(false);
    expect(out<{ sets?: unknown[] }>(ofKind(run, 'bioweave.refine').at(-1)!).sets).toBeUndefined();
  });
});

describe('BioWeave offline: switches and repair', () => {
  const QUESTION = "Which genes are associated with both multiple sclerosis and Crohn's disease?";

  it('with doc off, no passage or unit reaches the run, and the KG still answers', async () => {
    const run = await runBioWeave({ question: QUESTION, switches: { doc: false } });
    expect(evidenceKinds(run).has('passage')).toBe(false);
    expect(evidenceKinds(run).has('unit')).toBe(false);
    expect(ofKind(run, 'channel.doc')).toHaveLength(0);
    const init = out<{ plan: Plan; excludedSources: { source: string }[] }>(ofKind(run, 'bioweave.init')[0]);
    expect(init.plan.sourcePlan).not.toContain('doc');
    expect(init.excludedSources.map((s) => s.source)).toContain('doc');
    expect(answerOf(run).items!.length).toBeGreaterThan(5);
  });

  it('with kg off, no triple or path reaches the run; it repairs within T rounds and then says which hop is missing', async () => {
    const run = await runBioWeave({ question: QUESTION, switches: { kg: false } });
    expect(evidenceKinds(run).has('triple')).toBe(false);
    expect(evidenceKinds(run).has('path')).toBe(false);
    expect(ofKind(run, 'channel.kg')).toHaveLength(0);
    const rounds = ofKind(run, 'bioweave.round');
    expect(rounds.length).toBeGreaterThan(1);
    expect(rounds.length).toBeLessThanOrEqual(defaults.maxRounds);
    const decisions = ofKind(run, 'bioweave.repair').map((s) => out<RepairDecision>(s));
    expect(decisions.at(-1)!.decision).toBe('stop');
    for (const d of decisions.slice(0, -1)) {
      expect(d.decision).toBe('repair');
      expect(d.next!.sources).not.toContain('kg');
      expect(d.next!.targetHops).toEqual([d.missingHop]);
    }
    const answer = answerOf(run);
    expect(answer.abstained).toBe(true);
    expect(answer.extra).toMatchObject({ needsRepair: true, operatorSatisfied: false });
    expect(['c1.h1', 'c2.h1']).toContain(answer.extra!.missingHop);
    expect(answer.claims.every((c) => c.evidenceIds.length === 0)).toBe(true);
  });

  it('repairs an uncertain hop: the preferred relation finds nothing, the next round retries only that hop, widened, and answers', async () => {
    const run = await runBioWeave({ question: 'Which genes are linked to Ethambutol?' });
    const ethambutol = await nodeId('Ethambutol', 'Compound');
    const { rows } = await getPool().query<{ name: string; metaedge: string }>(
      `select n.name, e.metaedge from edges e join nodes n on n.id = e.target_id where e.source_id = $1 and e.metaedge in ('CbG', 'CuG', 'CdG')`,
      [ethambutol],
    );
    expect(rows.some((r) => r.metaedge === 'CbG')).toBe(false);

    const init = out<{ plan: Plan }>(ofKind(run, 'bioweave.init')[0]);
    expect(init.plan.constraints[0].hops[0]).toMatchObject({ id: 'c1.h1', explicit: false, metaedges: ['CbG', 'CuG', 'CdG'] });
    expect(init.plan.missingHops).toEqual(['c1.h1']);
    const [first, second] = ofKind(run, 'bioweave.round');
    expect(out<OperatorCheck>(childrenOf(run, first).find((s) => s.kind === 'bioweave.operator')!)).toMatchObject({ satisfied: false, missingHops: ['c1.h1'] });
    const decision = out<RepairDecision>(childrenOf(run, first).find((s) => s.kind === 'bioweave.repair')!);
    expect(decision).toMatchObject({ decision: 'repair', missingHop: 'c1.h1' });
    expect(decision.next).toMatchObject({ round: 2, targetHops: ['c1.h1'], missingHops: ['c1.h1'] });
    expect(decision.next!.sources).toContain('kg');
    expect(decision.plan!.constraints[0].hops[0].explicit).toBe(true);
    expect(run.modelCalls.filter((c) => c.template === 'bioweave.repair')).toHaveLength(1);

    // Round 2 expands from Ethambutol along every compound–gene relation.
    const expansion = childrenOf(
      run,
      childrenOf(run, second).find((s) => s.kind === 'bioweave.kg')!,
    ).find((s) => s.label === 'KG typed expansion')!;
    expect((expansion.input as { query: { metaedges: string[] } }).query.metaedges.sort()).toEqual(['CbG', 'CdG', 'CuG']);
    const answer = answerOf(run);
    expect(answer.extra).toMatchObject({ rounds: 2, needsRepair: false, operatorSatisfied: true });
    expect(sorted(answer.items!)).toEqual(sorted([...new Set(rows.map((r) => r.name))]));
  });

  it('resumed after its answer step was cut short, replays both rounds from their stored steps and answers as before, no round step made again', async () => {
    const run = await runBioWeave({ question: 'Which genes are linked to Ethambutol?' });
    expect(ofKind(run, 'bioweave.round')).toHaveLength(2);
    // A crash while answering: the answer step left running, the run queued again by recovery.
    const [answering] = ofKind(run, 'bioweave.answer');
    const resumed = await resumeAfterCrashIn(run.id, answering.id);
    // The same answer; only the answer stage's wall time (usage `ms`) is new.
    expect(untimed(resumed.answer)).toEqual(untimed(run.answer));
    expect(stepKinds(resumed)).toEqual(stepKinds(run));
    expect(resumed.evidence.map((e) => e.id)).toEqual(run.evidence.map((e) => e.id));
  });

  it('re-expands a capped later hop from its frontier when a count may be short, and then counts what the KG holds', async () => {
    const pparg = await nodeId('PPARG', 'Gene');
    const { rows } = await getPool().query<{ compounds: number; diseases: number }>(
      `select count(distinct b.source_id)::int as compounds, count(distinct t.target_id)::int as diseases
         from edges b left join edges t on t.source_id = b.source_id and t.metaedge = 'CtD' where b.metaedge = 'CbG' and b.target_id = $1`,
      [pparg],
    );
    const [{ compounds, diseases }] = rows;
    // A cap that holds every compound but only some of the diseases behind them.
    const rawPathCap = compounds + Math.floor(diseases / 2);
    const run = await runBioWeave({ question: 'How many diseases are treated by compounds that bind PPARG?', params: { rawPathCap } });
    const [first, second] = ofKind(run, 'bioweave.round');
    const check = out<OperatorCheck>(childrenOf(run, first).find((s) => s.kind === 'bioweave.operator')!);
    expect(check.satisfied).toBe(true);
    expect(check.count).toBeLessThan(diseases);
    const decision = out<RepairDecision>(childrenOf(run, first).find((s) => s.kind === 'bioweave.repair')!);
    expect(decision).toMatchObject({ decision: 'repair', missingHop: 'c1.h2' });
    expect(decision.reason).toMatch(/re-expanded on the KG from its frontier/);
    expect(decision.next).toMatchObject({ targetHops: ['c1.h2'], sources: ['kg'] });
    // Round 2 starts at the compounds round 1 reached, not at PPARG again.
    const expansion = childrenOf(
      run,
      childrenOf(run, second).find((s) => s.kind === 'bioweave.kg')!,
    ).find((s) => s.label === 'KG typed expansion')!;
    const starts = (expansion.input as { starts: string[] }).starts;
    expect(starts).toHaveLength(compounds);
    expect(starts.every((id) => id.startsWith('Compound::'))).toBe(true);
    const answer = answerOf(run);
    expect(answer).toMatchObject({ count: diseases, text: String(diseases) });
    expect(answer.extra).toMatchObject({ rounds: 2, incompleteHops: [] });
  });

  it("with no KG anchor still searches documents and the web by the question's text, recorded in the trace, and abstains on what they do not state", async () => {
    const question = 'How many genes are associated with glorbitis syndrome?';
    const run = await runBioWeave({ question });
    // Nothing linked, so no typed hop: the rounds retrieve for the question as a whole, and never from the KG.
    const rounds = ofKind(run, 'bioweave.round');
    expect(rounds.length).toBeGreaterThan(0);
    for (const r of rounds) expect((r.input as { targetHops: string[] }).targetHops).toEqual(['question']);
    expect(ofKind(run, 'bioweave.kg')).toEqual([]);
    for (const source of ['doc', 'web'] as const) {
      const [first] = ofKind(run, `bioweave.${source}`);
      expect(out<{ queries: string[] }>(first).queries).toEqual([question]);
      const searches = childrenOf(run, first).filter((s) => s.kind === `channel.${source}`);
      expect(searches.map((s) => (s.input as { query: string }).query)).toEqual([question]);
      expect(searches.every((s) => s.status === 'succeeded')).toBe(true);
    }
    // With no linked entity, document relevance is the question's own words under the calibrated threshold, and the search says so.
    const [docSearch] = childrenOf(run, ofKind(run, 'bioweave.doc')[0]).filter((s) => s.kind === 'channel.doc');
    expect((docSearch.output as unknown as DocSearchResult).rule.kind).toBe('question words');
    expect(answerOf(run).abstained).toBe(true);
  });

  it('records a first hop cut short by the raw cap in the KG step and the answer, and the answer box says so from the record', async () => {
    const asthma = await nodeId('asthma', 'Disease');
    const { rows } = await getPool().query<{ genes: number }>(`select count(*)::int as genes from edges where metaedge = 'DaG' and source_id = $1`, [asthma]);
    const rawPathCap = Math.floor(rows[0].genes / 2);
    const run = await runBioWeave({ question: 'How many genes are associated with asthma?', params: { rawPathCap } });
    const kg = ofKind(run, 'bioweave.kg').map((s) => out<{ capped: { cap: number; kept: number; available: string } | null }>(s));
    expect(kg[0].capped).toEqual({ cap: rawPathCap, kept: rawPathCap, available: `≥ ${rawPathCap}` });
    const answer = answerOf(run);
    expect(answer.count).toBeLessThan(rows[0].genes);
    expect(answer.extra).toMatchObject({ capsReached: [{ param: 'rawPathCap', value: rawPathCap }] });
    const why = explainAnswer({
      method: 'bioweave',
      status: 'succeeded',
      question: run.question,
      answerType: 'count',
      answer,
      switches: null,
      params: { ...defaults, rawPathCap },
      seeds: [],
      steps: [],
      evidence: [],
    });
    expect(why.partial?.line).toBe(
      `This count may be partial: rawPathCap = ${rawPathCap} KG paths retrieved per round before ranking, and the run reached it.`,
    );
  });
});

describe('BioWeave over an OpenAI-compatible server', () => {
  let server: ScriptedServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('runs every role through the server, holds each output to what was retrieved and shown, and weaves web evidence in', async () => {
    const QUESTION = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
    const [ms, cd, tnf] = await Promise.all([nodeId('multiple sclerosis', 'Disease'), nodeId("Crohn's disease", 'Disease'), nodeId('TNF', 'Gene')]);
    const plan: Plan = {
      mentions: ['multiple sclerosis', "Crohn's disease"],
      topicEntityIds: [ms, cd, 'Gene::0'],
      answerType: 'entity_list',
      answerKind: 'Gene',
      operator: 'shared_neighbor',
      constraints: [
        { id: 'c1', anchorId: ms, negated: false, hops: [{ id: 'c1.h1', fromKind: 'Disease', toKind: 'Gene', metaedges: ['DaG', 'CtD'], explicit: true }] },
        { id: 'c2', anchorId: cd, negated: false, hops: [{ id: 'c2.h1', fromKind: 'Disease', toKind: 'Gene', metaedges: ['DaG'], explicit: true }] },
        { id: 'c3', anchorId: 'Gene::0', negated: false, hops: [{ id: 'c3.h1', fromKind: 'Gene', toKind: 'Gene', metaedges: ['GiG'], explicit: true }] },
      ],
      claims: [],
      excludedIds: [],
      sourcePlan: ['kg', 'web', 'doc'],
      missingHops: [],
      briefReason: 'two diseases, one shared gene set',
    };
    let cited: string[] = [];
    server = await startScriptedOpenAIServer((request) => {
      const [system, user] = request.body.messages as { content: string }[];
      const ids = (pattern: RegExp) => [...user.content.matchAll(pattern)].map((m) => m[1]);
      switch (system.content) {
        case initTemplate.system:
          return reply.ok(JSON.stringify(plan));
        case convertTemplate.system: {
          const spans = [...user.content.matchAll(/^\[([^\]]+)\] \((doc|web)\) (.*)$/gm)];
          const units = spans.map(([, spanId]) => ({
            spanId,
            entityIds: [ms, cd, tnf],
            predicate: 'associated with',
            relations: ['DaG', 'CtD'],
            hop: 'c1.h1',
            negated: false,
          }));
          return reply.ok(
            JSON.stringify({
              units: [...units, { spanId: 'nowhere', entityIds: [], predicate: null, relations: [], hop: null, negated: false }],
              unused: [],
              notes: 'scripted',
            }),
          );
        }
        case selectTemplate.system: {
          const shown = ids(/^\[([^\]]+)\] s_cross=/gm);
          return reply.ok(JSON.stringify({ selected: [...shown, 'not-shown'].map((id) => ({ id, reason: 'scripted' })), briefReason: 'all of them' }));
        }
        case answerTemplate.system: {
          const evidence = [...user.content.matchAll(/evidence: ([^\]]+)\]/g)].flatMap((m) => m[1].split(', '));
          cited = [evidence[0], 'invented-id'];
          return reply.ok(
            JSON.stringify({
              answer: 'TNF',
              normalizedAnswer: 'tnf',
              optionKey: null,
              items: ['TNF', 'tnf'],
              count: 2, // a model may fill the count of a list too; the list stays the answer
              supportingSources: ['kg', 'web'],
              evidenceIds: cited,
              claims: [{ text: 'TNF', evidenceIds: cited }],
              needsRepair: false,
              missingHop: null,
              briefReason: 'TNF is associated with both',
            }),
          );
        }
        default:
          return reply.status(500, { message: `unexpected role: ${system.content.slice(0, 40)}` });
      }
    });

    const prisma = await getPrisma();
    const row = await prisma.run.create({
      data: { shareId: newShareId(), questionText: QUESTION, input: {}, method: 'bioweave', config: {}, configHash: 'test', status: 'running' },
    });
    const trace = await TraceRecorder.open(row.id);
    const embeddingModel = `emb-${randomUUID()}`;
    const model = new ModelClient(new OpenAIBackend({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 10_000 }), {
      similarity: new EmbeddingSimilarity(
        new EmbeddingClient({ baseUrl: server.baseUrl, apiKey: 'k', model: embeddingModel, cache: new PrismaEmbeddingCache() }),
      ),
    });
    const webBundle = [
      { id: 'gwas-1', title: 'Shared risk loci', snippet: "TNF is associated with multiple sclerosis and Crohn's disease in genome-wide studies." },
      { id: 'off-topic', title: 'Weather', snippet: 'Rain is expected tomorrow.' },
    ];
    const ctx: MethodContext<BioWeaveParams> = {
      question: { text: QUESTION, options: null, answerType: 'open', documentIds: [], questionId: null },
      params: defaults,
      channels: new Channels({ switches: { ...FULL_SWITCHES, doc: false }, kgShuffle: null, trace, model, documentIds: [], webBundle }),
      model,
      trace,
      backend: 'openai',
    };
    const answer = await bioweave.run(ctx);

    const { steps, evidence } = await readTrace(row.id);
    const stepOut = <T>(kind: string) => (steps.find((s) => s.kind === kind)!.output as unknown as Staged<T>).output;
    const calls = await prisma.modelCall.findMany({ where: { runId: row.id }, orderBy: { ordinal: 'asc' } });
    expect(calls.map((c) => c.template)).toEqual(['bioweave.init', 'bioweave.convert', 'bioweave.select', 'bioweave.answer']);
    expect(calls.every((c) => c.backend === 'openai' && c.tokensIn === 10)).toBe(true);

    // The plan: the unlinked anchor, the relation that does not join Disease and Gene, and the disabled doc source are gone.
    const init = stepOut<{ plan: Plan; corrections: string[] }>('bioweave.init');
    expect(init.plan.constraints.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(init.plan.constraints[0].hops[0].metaedges).toEqual(['DaG']);
    expect(init.plan.sourcePlan).toEqual(['kg', 'web']);
    expect(init.plan.topicEntityIds).toEqual([ms, cd]);
    for (const pattern of [/Gene::0 is not a linked entity/, /dropped CtD/, /source doc is not enabled/])
      expect(init.corrections.some((c) => pattern.test(c))).toBe(true);

    // Conversion: the web span names both diseases and TNF; the unknown span and the relation joining nothing are dropped.
    const conversion = stepOut<{ units: { source: string; entities: { name: string }[]; relations: string[] }[]; corrections: string[] }>('bioweave.convert');
    expect(conversion.units).toHaveLength(1);
    expect(conversion.units[0]).toMatchObject({ source: 'web', relations: ['DaG'] });
    expect(conversion.units[0].entities.map((e) => e.name).sort()).toEqual(["Crohn's disease", 'TNF', 'multiple sclerosis']);
    for (const pattern of [/unknown span nowhere/, /relation CtD dropped/]) expect(conversion.corrections.some((c) => pattern.test(c))).toBe(true);
    const webUnit = evidence.filter((e) => e.kind === 'unit' && e.selected)[0];
    expect(webUnit).toMatchObject({ channel: 'web', selected: true });
    expect((webUnit.data as { assertsKgFact: boolean }).assertsKgFact).toBe(false);
    const table = stepOut<ScoringTable>('bioweave.verify');
    expect(table.rows.find((r) => r.unitId === webUnit.id)!.rPrior).toBe(0.7);
    // cos and Sim are the embedding endpoint's, and the run says so.
    expect(table.similarity).toMatchObject({ kind: `embedding:${embeddingModel}` });
    expect(stepOut<{ similarity: { kind: string } }>('bioweave.web').similarity.kind).toBe(`embedding:${embeddingModel}`);
    const served = (t: string) => Float32Array.from(bagOfWordsVector(t));
    for (const r of table.rows) expect(r.cos).toBeCloseTo(vectorCosine(served(QUESTION), served(r.text)), 5);
    expect(server.requests.filter((r) => r.path.endsWith('/embeddings')).every((r) => r.body.model === embeddingModel)).toBe(true);
    expect(answer.extra!.similarity).toBe(`embedding:${embeddingModel}`);

    // Selection keeps at most K of what it was shown.
    const selection = stepOut<SelectionOutcome>('bioweave.select');
    expect(selection.selected.length).toBe(Math.min(defaults.k, selection.shown.length));
    expect(selection.rejected.map((r) => r.id)).toContain('not-shown');

    // The web unit restates MS–TNF and Crohn's–TNF: those KG edges are corroborated by web.
    const graph = stepOut<RefinedGraph>('bioweave.refine');
    const tnfEdges = graph.edges.filter((e) => e.origin === 'kg' && e.targetId === tnf);
    expect(tnfEdges.map((e) => e.sourceId).sort()).toEqual([ms, cd].sort());
    for (const e of tnfEdges) {
      expect(e.sources).toEqual(['kg', 'web']);
      expect(e.corroboratedBy).toEqual([{ unitId: webUnit.id, how: 'predicate' }]);
    }
    expect(graph.paths.some((p) => p.corroborated)).toBe(true);

    // The answer cites only the refined graph's evidence; the duplicate alias is counted once.
    expect(answer.text).toBe('TNF');
    expect(answer.evidenceIds).toEqual([cited[0]]);
    expect(answer.claims).toEqual([{ text: 'TNF', evidenceIds: [cited[0]] }]);
    expect(answer.items).toEqual(['TNF']);
    expect(answer.extra).toMatchObject({ droppedEvidenceIds: ['invented-id'], needsRepair: false, operatorSatisfied: true });
    const usage = answer.extra!.usage as { calls: number; tokensIn: number };
    expect(usage).toMatchObject({ calls: 4, tokensIn: 40 });
  });
});

describe('BioWeave over an OpenAI-compatible server: a constraint the plan cannot follow', () => {
  let server: ScriptedServer;
  let restoreEnv = () => undefined as void;
  afterAll(async () => {
    restoreEnv();
    await server?.close();
  });

  it('an intersection whose second entity is linked as a kind its relation does not start from: the operator check fails and says which constraint, never "satisfied" over one side', async () => {
    const QUESTION = "Which compounds treat both multiple sclerosis and Crohn's disease?";
    const [ms, cd] = await Promise.all([nodeId('multiple sclerosis', 'Disease'), nodeId("Crohn's disease", 'Disease')]);
    // As a model wrote it for "epilepsy" linked as a Side Effect: the second hop starts from a kind its anchor is not.
    const plan: Plan = {
      mentions: ['multiple sclerosis', "Crohn's disease"],
      topicEntityIds: [ms, cd],
      answerType: 'entity_list',
      answerKind: 'Compound',
      operator: 'intersection',
      constraints: [
        { id: 'c1', anchorId: ms, negated: false, hops: [{ id: 'c1.h1', fromKind: 'Disease', toKind: 'Compound', metaedges: ['CtD'], explicit: true }] },
        { id: 'c2', anchorId: cd, negated: false, hops: [{ id: 'c2.h1', fromKind: 'Side Effect', toKind: 'Compound', metaedges: ['CcSE'], explicit: true }] },
      ],
      claims: [],
      excludedIds: [],
      sourcePlan: ['kg'],
      missingHops: [],
      briefReason: 'two treated-by sets, intersected',
    };
    let answerPrompt = '';
    server = await startScriptedOpenAIServer((request) => {
      const [system, user] = request.body.messages as { content: string }[];
      switch (system.content) {
        case initTemplate.system:
          return reply.ok(JSON.stringify(plan));
        case selectTemplate.system:
          return reply.ok(
            JSON.stringify({
              selected: [...user.content.matchAll(/^\[([^\]]+)\] s_cross=/gm)].map((m) => ({ id: m[1], reason: 'scripted' })),
              briefReason: 'all',
            }),
          );
        case answerTemplate.system:
          answerPrompt = user.content;
          return reply.ok(
            JSON.stringify({
              answer: '',
              normalizedAnswer: '',
              optionKey: null,
              items: [],
              count: null,
              supportingSources: [],
              evidenceIds: [],
              claims: [],
              needsRepair: true,
              missingHop: 'c2',
              briefReason: 'one side only',
            }),
          );
        default:
          return reply.status(500, { message: `unexpected role: ${system.content.slice(0, 40)}` });
      }
    });
    restoreEnv = setScriptedModelEnv(server, { model: `scripted-${randomUUID()}` });
    const { id } = await createRun(
      {
        method: 'bioweave',
        backend: 'openai',
        question: QUESTION,
        switches: { doc: false, web: false, kg: true, entity: true, param: true },
        params: { maxRounds: 1 },
      },
      { enqueue: false },
    );
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const init = out<{ plan: Plan; unfollowed: string[] }>(ofKind(run, 'bioweave.init')[0]);
    expect(init.plan.constraints.map((c) => c.id)).toEqual(['c1']);
    expect(init.unfollowed).toHaveLength(1);
    expect(init.unfollowed[0]).toMatch(/^constraint c2 on Crohn's disease \(Disease\)/);
    // The multiple sclerosis side alone is found in full, and still the check does not pass.
    const check = out<OperatorCheck>(ofKind(run, 'bioweave.operator')[0]);
    expect(check.satisfied).toBe(false);
    expect(check.reason).toContain("constraint c2 on Crohn's disease");
    expect(out<RepairDecision>(ofKind(run, 'bioweave.repair')[0]).decision).toBe('stop');
    expect(answerPrompt).toMatch(/Operator check: FAILED \(the plan could not follow constraint c2 on Crohn's disease/);
    expect(answerOf(run).extra).toMatchObject({ operatorSatisfied: false });
  });
});

describe("BioWeave cross-verification with the endpoint's embeddings", () => {
  // The designed case: an embedding that knows "MS" is multiple sclerosis and "linked to" is "associated with",
  // which the lexical stand-in cannot; every other word is its own direction.
  const SAME: Record<string, string> = { ms: 'multiple sclerosis', linked: 'associated', associates: 'associated', genes: 'gene' };
  const STOP = new Set(['is', 'to', 'with', 'which', 'are', 'the', 'of']);
  const meaning = (text: string) =>
    (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
      .filter((w) => !STOP.has(w))
      .map((w) => SAME[w] ?? w)
      .join(' ');
  const question = 'Which genes are associated with multiple sclerosis?';
  const unit = (id: string, source: Source, text: string): Unit => ({
    id,
    source,
    round: 1,
    ref: null,
    text,
    entities: [],
    predicate: null,
    relations: [],
    hops: [],
    span: null,
    provenance: [],
    negated: false,
    paths: [],
    pathScore: null,
    operatorConsistent: false,
  });
  const units = [
    unit('kg:DaG', 'kg', 'multiple sclerosis – associates – TNF'),
    unit('doc-1', 'doc', 'TNF is linked to MS'),
    unit('doc-2', 'doc', 'Genes associated with rainfall in the west'),
  ];
  const p = BioWeaveParamsSchema.parse({});
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedOpenAIServer([], { embeddings: { vector: (t) => bagOfWordsVector(meaning(t)) } });
  });
  afterAll(() => server.close());

  it("scores s_rel and Supp by the embeddings' cosine, so a paraphrase across sources counts as support where lexical overlap misses it", async () => {
    const similarity = new EmbeddingSimilarity(
      new EmbeddingClient({ baseUrl: server.baseUrl, model: `emb-${randomUUID()}`, cache: new PrismaEmbeddingCache() }),
    );
    const embedded = crossVerify(question, units, await compareUnits(similarity, question, units), [], new Set(), p);
    const lexical = crossVerify(question, units, await compareUnits(new LexicalSimilarity(LEXICAL_WHY.offline), question, units), [], new Set(), p);
    const row = (t: ScoringTable, id: string) => t.rows.find((r) => r.unitId === id)!;
    expect(embedded.similarity.kind).toMatch(/^embedding:emb-/);
    expect(lexical.similarity).toMatchObject({ kind: 'lexical', why: LEXICAL_WHY.offline });

    const served = (t: string) => Float32Array.from(bagOfWordsVector(meaning(t)));
    for (const u of units) expect(row(embedded, u.id).cos).toBeCloseTo(vectorCosine(served(question), served(u.text)), 5);
    // The paraphrase shares no content term with the question or the KG path, yet means the same; the
    // off-topic passage shares words with the question and nothing else.
    expect(row(lexical, 'doc-1').cos).toBe(0);
    expect(row(lexical, 'doc-2').cos).toBeGreaterThan(0);
    expect(row(embedded, 'doc-1').cos).toBeGreaterThan(row(embedded, 'doc-2').cos);
    expect(row(lexical, 'doc-1').rSup).toBe(0);
    expect(row(embedded, 'doc-1')).toMatchObject({ supporters: ['kg:DaG'], supp: ['kg'] });
    expect(row(embedded, 'doc-1').rSup).toBeCloseTo(1 / p.wSrc, 12);
    expect(row(embedded, 'kg:DaG').supp).toEqual(['doc']);
    // And so the ranking moves: by s_cross the paraphrase passes the off-topic passage only with embeddings.
    expect(lexical.top.indexOf('doc-1')).toBeGreaterThan(lexical.top.indexOf('doc-2'));
    expect(embedded.top.indexOf('doc-1')).toBeLessThan(embedded.top.indexOf('doc-2'));
  });
});
