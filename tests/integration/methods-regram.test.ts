import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Channels, FULL_SWITCHES, type Switches } from '@/lib/channels';
import { closeDb, getPrisma } from '@/lib/db/client';
import { linkEntities, neighbors } from '@/lib/kg';
import type { RelationDomain } from '@/lib/kg/metaedge-categories';
import { relationWeight } from '@/lib/llm/offline/metaedges';
import { ModelClient } from '@/lib/llm/client';
import { Bm25Index, lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { contentTerms } from '@/lib/llm/offline/text';
import { OpenAIBackend } from '@/lib/llm/openai-backend';
import { regram } from '@/lib/methods/regram';
import type { CandidateTable } from '@/lib/methods/regram/stages/region';
import { TIE_BREAK } from '@/lib/methods/regram/mmr';
import type { CandidateSet } from '@/lib/methods/regram/stages/candidates';
import type { HypothesisOutcome, HypothesisRecord } from '@/lib/methods/regram/stages/hypotheses';
import type { HopLinking } from '@/lib/methods/regram/stages/link';
import { RegramParamsSchema } from '@/lib/methods/regram/params';
import type { Region } from '@/lib/methods/regram/region';
import {
  answerHybridTemplate,
  answerStrictTemplate,
  classifyTemplate,
  decomposeTemplate,
  hypothesizeTemplate,
  reviewTemplate,
  reviseTemplate,
  synthesizeTemplate,
  type EvidenceMapEntry,
  type HopAnswer,
} from '@/lib/methods/regram/templates';
import type { MethodAnswer } from '@/lib/methods/types';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';
import type { RunRequest } from '@/lib/runs/schemas';
import { newShareId } from '@/lib/runs/share-id';
import { TraceRecorder } from '@/lib/trace/recorder';
import { readTrace } from '@/lib/trace/store';
import { vectorCosine } from '@/lib/llm/similarity';
import type { TripleData } from '@/lib/trace/types';
import { bagOfWordsVector, reply, startScriptedOpenAIServer, setScriptedModelEnv, type ScriptedServer } from '../support/scripted-openai-server';
import { runToSuccess } from '../support/runs';

const HEADLINE = "Which genes are associated with both multiple sclerosis and Crohn's disease?";

afterAll(closeDb);

type Step = RunRecord['steps'][number];
const ofKind = (run: RunRecord, kind: string) => run.steps.filter((s) => s.kind === kind);
const childrenOf = (run: RunRecord, parent: Step) => run.steps.filter((s) => s.parentStepId === parent.id);
const childOf = (run: RunRecord, parent: Step, kind: string) => childrenOf(run, parent).find((s) => s.kind === kind)!;
const answerOf = (run: RunRecord) => run.answer as unknown as MethodAnswer;

const runRegram = (body: Omit<RunRequest, 'method'>) => runToSuccess({ method: 'regram', ...body });

async function nodeId(name: string, kind: string): Promise<string> {
  const link = (await linkEntities(name)).find((l) => l.kind === kind);
  if (!link) throw new Error(`${name} (${kind}) is not in the test KG`);
  return link.nodeId;
}

/** The nodes the KG joins to `id` through `metaedge`, read straight from the KG (the oracle of these tests). */
async function kgNeighbours(id: string, metaedge: string): Promise<Set<string>> {
  const { edges } = await neighbors(id, { metaedges: [metaedge], limit: 100_000 });
  return new Set(edges.map((e) => e.neighbor.id));
}

describe('ReGraM offline on the headline question', () => {
  let run: RunRecord;
  let hops: Step[];

  beforeAll(async () => {
    run = await runRegram({ question: HEADLINE });
    hops = ofKind(run, 'regram.hop');
  });

  it('answers with genes the KG associates with both diseases', async () => {
    const answer = answerOf(run);
    expect(answer.abstained).toBe(false);
    expect(answer.items!.length).toBeGreaterThan(0);
    const [ms, crohn] = [await nodeId('multiple sclerosis', 'Disease'), await nodeId("Crohn's disease", 'Disease')];
    const [msGenes, crohnGenes] = [await kgNeighbours(ms, 'DaG'), await kgNeighbours(crohn, 'DaG')];
    expect(answer.nodeIds).toHaveLength(answer.items!.length);
    for (const id of answer.nodeIds!) {
      expect(msGenes.has(id)).toBe(true);
      expect(crohnGenes.has(id)).toBe(true);
    }
    expect(answer.text).toBe(answer.items!.join('; '));
    // Every claim rests on the triples that state it.
    const evidence = new Map(run.evidence.map((e) => [e.id, e]));
    for (const claim of answer.claims) {
      const triples = claim.evidenceIds.map((id) => evidence.get(id)!.data as TripleData);
      expect(triples.some((t) => t.metaedge === 'DaG' && t.sourceId === ms && t.targetName === claim.text)).toBe(true);
      expect(triples.some((t) => t.metaedge === 'DaG' && t.sourceId === crohn && t.targetName === claim.text)).toBe(true);
    }
    expect(answer.extra).toMatchObject({ domain: 'DISEASE_SYMPTOM', similarity: 'lexical (offline engine: no embedding endpoint)' });
  });

  it('leaves the trace ReGraM describes: domain, decomposition, then per hop link → candidates → MMR → region → mode → answer', () => {
    const top = run.steps.filter((s) => s.parentStepId === null).map((s) => s.kind);
    expect(top).toEqual(['regram.read', 'regram.domain', 'regram.decompose', 'regram.hop', 'regram.hop', 'regram.evidence-map', 'regram.synthesis']);
    const domain = ofKind(run, 'regram.domain')[0].output as { domain: RelationDomain; weights: Record<string, number> };
    expect(domain.domain).toBe('DISEASE_SYMPTOM');
    expect(domain.weights).toMatchObject({ Associated_with: 1.3, Causes: 1.5, Interacts_with: 0.6 });
    const plan = ofKind(run, 'regram.decompose')[0].output as { hops: { question: string; usesHop: number | null }[]; fallback: string | null };
    expect(plan.fallback).toBeNull();
    expect(plan.hops.map((h) => h.usesHop)).toEqual([null, 1]);
    for (const hop of hops) {
      expect(childrenOf(run, hop).map((s) => s.kind)).toEqual([
        'regram.link',
        'regram.candidates',
        'regram.mmr',
        'regram.region',
        'regram.mode',
        'regram.hop-answer',
      ]);
      expect(childOf(run, hop, 'regram.mode').output).toMatchObject({ mode: 'KG-STRICT', nFacts: 15 });
      expect((childOf(run, hop, 'regram.mode').output as { why: string }).why).toContain('15 ≥ 10');
    }
    expect(ofKind(run, 'regram.synthesis')).toHaveLength(1);
    const map = ofKind(run, 'regram.evidence-map')[0].output as unknown as EvidenceMapEntry[];
    expect(map.map((e) => e.mode)).toEqual(['KG-STRICT', 'KG-STRICT']);
    expect(map.every((e) => e.facts.length > 0 && !e.abstained)).toBe(true);
  });

  it("links mentions with method and score, and takes hop 1's answers as hop 2's anchors", () => {
    const [first, second] = hops.map((h) => childOf(run, h, 'regram.link').output as unknown as HopLinking);
    expect(first.nodes).toEqual([expect.objectContaining({ name: 'multiple sclerosis', method: 'exact', score: 1, from: 'hop question' })]);
    const hop1Items = (childOf(run, hops[0], 'regram.hop-answer').output as { answer: HopAnswer }).answer.items;
    const anchors = second.nodes.filter((n) => n.method === 'earlier hop answer');
    expect(anchors.map((a) => a.name).sort()).toEqual([...hop1Items].sort());
    expect(anchors.every((a) => a.from === 'hop 1 answer' && a.score === null)).toBe(true);
    // Sim reads hop 2 once per anchor, its name in place of "these genes".
    expect(second.simQueries).toEqual(anchors.map((a) => `Which of ${a.name} are associated with Crohn's disease?`));
    expect(first.simQueries).toEqual(['Which genes are associated with multiple sclerosis?']);
    expect(second.nodes.some((n) => n.name === "Crohn's disease" && n.method === 'exact')).toBe(true);
  });

  it('records the hub cap: a hub keeps hubCap triples, its best relation first', () => {
    const candidates = childOf(run, hops[0], 'regram.candidates').output as unknown as CandidateSet;
    expect(candidates.hubCap).toBe(30);
    const [ms] = candidates.caps;
    // multiple sclerosis has 150 gene associations: the cap bites, and association with genes comes first.
    expect(ms).toMatchObject({ name: 'multiple sclerosis', kept: 30, capped: true });
    expect(ms.relations[0]).toMatchObject({ metaedge: 'DaG', kept: 30 });
    expect(ms.relations[0].available).toBeGreaterThan(30);
    expect(ms.relations.slice(1).every((r) => r.available === null && r.kept === 0)).toBe(true);
    expect(candidates.records).toHaveLength(30);
  });

  it('keeps a candidate table that follows the weighted MMR formula, greedily', () => {
    for (const hop of hops) {
      const table = childOf(run, hop, 'regram.mmr').output as unknown as CandidateTable;
      const { rows, lambda, k } = table;
      expect(table.similarity).toMatchObject({ kind: 'lexical', why: 'offline engine: no embedding endpoint' });
      expect([lambda, k]).toEqual([0.7, 15]);
      expect(table.tieBreak).toBe(TIE_BREAK);
      // Sim(q_i, t): BM25 (idf over the candidates) over the BM25 of a triple holding all of q_i; Sim(t, t'): cosine of term counts.
      const index = new Bm25Index(rows.map((r) => r.simText));
      const ideal = (q: string) => [...new Set(contentTerms(q))].reduce((sum, t) => sum + index.idf(t), 0);
      const scaled = table.queries.map((q) => rows.map((_, i) => Math.min(1, index.score(q, i) / ideal(q))));
      const memo = new Map<string, number>();
      const sim = (a: string, b: string) => memo.get(`${a}\n${b}`) ?? memo.set(`${a}\n${b}`, lexicalSimilarity(a, b)).get(`${a}\n${b}`)!;
      for (const [i, r] of rows.entries()) {
        expect(r.wR).toBe(relationWeight(r.relation, 'DISEASE_SYMPTOM'));
        expect(r.sim).toBeCloseTo(Math.max(...scaled.map((x) => x[i])), 9);
        expect(r.relevance).toBeCloseTo(lambda * r.sim * r.wR, 9);
        expect(r.mmr).toBeCloseTo(r.relevance - r.redundancy, 9);
      }
      // Replay the greedy selection from scratch: same order, same redundancy terms.
      const chosen: typeof rows = [];
      const left = [...rows];
      while (chosen.length < k && left.length) {
        const scored = left.map((r) => {
          const redundancy = chosen.length ? (1 - lambda) * Math.max(...chosen.map((c) => sim(r.simText, c.simText))) : 0;
          return { r, mmr: r.relevance - redundancy, redundancy };
        });
        // Ties go by the recorded secondary key: the higher relevance, then the earlier retrieval order.
        const before = (x: (typeof scored)[number], y: (typeof scored)[number]) =>
          Math.abs(x.mmr - y.mmr) > 1e-12 ? x.mmr > y.mmr : x.r.relevance !== y.r.relevance ? x.r.relevance > y.r.relevance : x.r.order < y.r.order;
        const best = scored.reduce((a, b) => (before(b, a) ? b : a));
        expect(best.r.rank).toBe(chosen.length + 1);
        expect(best.r.redundancy).toBeCloseTo(best.redundancy, 9);
        chosen.push(best.r);
        left.splice(left.indexOf(best.r), 1);
      }
      expect(rows.filter((r) => r.selected)).toHaveLength(15);
      for (const r of left) {
        expect(r.selected).toBe(false);
        expect(r.redundancy).toBeCloseTo((1 - lambda) * Math.max(...chosen.map((c) => sim(r.simText, c.simText))), 9);
      }
      // Selected candidates are marked in the evidence; the rest stay unselected candidates.
      const evidence = new Map(run.evidence.map((e) => [e.id, e]));
      for (const r of rows) expect(evidence.get(r.evidenceId)!.selected).toBe(r.selected);
    }
  });

  it('holds every hop answer and the final answer inside the regions', () => {
    const regionNames = new Set<string>();
    const regionIds = new Set<string>();
    for (const hop of hops) {
      const region = childOf(run, hop, 'regram.region').output as unknown as Region;
      const table = childOf(run, hop, 'regram.mmr').output as unknown as CandidateTable;
      expect(region.edges.map((e) => e.evidenceId)).toEqual(
        table.rows
          .filter((r) => r.selected)
          .sort((a, b) => a.rank! - b.rank!)
          .map((r) => r.evidenceId),
      );
      const ends = new Set(region.facts.flatMap((f) => [f.triple.sourceId, f.triple.targetId]));
      expect(new Set(region.nodes.map((n) => n.nodeId))).toEqual(ends);
      for (const n of region.nodes) {
        regionNames.add(n.name);
        regionIds.add(n.nodeId);
      }
      const { answer } = childOf(run, hop, 'regram.hop-answer').output as { answer: HopAnswer };
      const names = new Set(region.nodes.map((n) => n.name));
      expect(answer.items.every((i) => names.has(i))).toBe(true);
      const factIds = new Set(region.facts.map((f) => f.id));
      expect(answer.evidenceIds.every((id) => factIds.has(id))).toBe(true);
    }
    const answer = answerOf(run);
    expect(answer.items!.every((i) => regionNames.has(i))).toBe(true);
    expect(answer.nodeIds!.every((id) => regionIds.has(id))).toBe(true);
  });
});

describe('ReGraM offline on other phrasings', () => {
  it('a drug–disease lookup: compounds the KG says treat type 2 diabetes', async () => {
    const run = await runRegram({ question: 'What drugs are used to treat type 2 diabetes mellitus?' });
    const answer = answerOf(run);
    expect(answer.extra).toMatchObject({ domain: 'DRUG_THERAPY', hops: [expect.objectContaining({ mode: 'KG-STRICT' })] });
    const treating = await kgNeighbours(await nodeId('type 2 diabetes mellitus', 'Disease'), 'CtD');
    expect(answer.nodeIds!.length).toBeGreaterThan(0);
    for (const id of answer.nodeIds!) expect(treating.has(id)).toBe(true);
  });

  it("a 2-hop chain: compounds that treat diseases associated with PPARG, hop 2 anchored on hop 1's diseases", async () => {
    const run = await runRegram({ question: 'Which compounds treat diseases associated with the gene PPARG?' });
    const answer = answerOf(run);
    expect((answer.extra!.hops as { mode: string }[]).map((h) => h.mode)).toEqual(['KG-STRICT', 'KG-STRICT']);
    const diseases = await kgNeighbours(await nodeId('PPARG', 'Gene'), 'DaG');
    expect(answer.nodeIds!.length).toBeGreaterThan(0);
    for (const id of answer.nodeIds!) {
      const treated = await kgNeighbours(id, 'CtD');
      expect([...treated].some((d) => diseases.has(d))).toBe(true);
    }
    const hop2 = ofKind(run, 'regram.hop')[1];
    const linking = childOf(run, hop2, 'regram.link').output as unknown as HopLinking;
    expect(linking.nodes.length).toBeGreaterThan(1);
    expect(linking.nodes.every((n) => n.method === 'earlier hop answer' && n.kind === 'Disease')).toBe(true);
  });

  it('multiple choice: the options seed no hop by default (the paper links the hop question only); with optionSeeds they do, and the region holds the right one', async () => {
    const options = { A: 'BRCA1', B: 'STAT3', C: 'APOE', D: 'CFTR' };
    const question = "Which gene is associated with both multiple sclerosis and Crohn's disease?";
    const plain = await runRegram({ question, options });
    for (const hop of ofKind(plain, 'regram.hop')) {
      const linking = childOf(plain, hop, 'regram.link').output as unknown as HopLinking;
      expect(linking.nodes.some((n) => n.from.startsWith('option '))).toBe(false);
      expect(linking.simQueries.some((q) => q.endsWith(' STAT3'))).toBe(true);
    }
    expect(answerOf(plain).optionKey).not.toBe('A');
    const run = await runRegram({ question, options, params: { optionSeeds: true } });
    expect(answerOf(run)).toMatchObject({ optionKey: 'B', text: 'STAT3', abstained: false });
    // The options are linked and join every hop's anchors (on hop 2 some are hop 1 answers already).
    const [first, last] = ofKind(run, 'regram.hop').map((h) => childOf(run, h, 'regram.link').output as unknown as HopLinking);
    expect(first.nodes.filter((n) => n.from.startsWith('option ')).map((n) => `${n.from}: ${n.name}`)).toEqual([
      'option A: BRCA1',
      'option B: STAT3',
      'option C: APOE',
      'option D: CFTR',
    ]);
    expect(last.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['BRCA1', 'STAT3', 'APOE', 'CFTR']));
  });

  it("multiple choice: an option's KG edge to the hop's entity beyond the hub cap is still a scored candidate, and an abstention says where each option stood", async () => {
    const question = "Which of the following genes is associated with Parkinson's disease?";
    // SNCA's Parkinson's disease association lies beyond the 30 triples the hub cap keeps at Parkinson's disease.
    const found = await runRegram({ question, options: { A: 'ALB', B: 'SNCA', C: 'HBB', D: 'CFTR' } });
    const [hop] = ofKind(found, 'regram.hop');
    const candidates = childOf(found, hop, 'regram.candidates').output as unknown as CandidateSet;
    expect(candidates.optionEdges.find((o) => o.name === 'SNCA')).toMatchObject({ option: 'B', beyondCap: 1 });
    expect(candidates.optionEdges.find((o) => o.name === 'ALB')).toMatchObject({ edges: 0 });
    expect(answerOf(found)).toMatchObject({ optionKey: 'B', text: 'SNCA', abstained: false });
    expect((childOf(found, hop, 'regram.link').output as unknown as HopLinking).nodes.some((n) => n.from.startsWith('option '))).toBe(false);

    const missed = answerOf(await runRegram({ question, options: { A: 'ALB', B: 'CFTR', C: 'HBB' } }));
    expect(missed.abstained).toBe(true);
    expect(missed.rationale).toContain(
      "A (ALB) is outside the region: no KG edge joins it to the hop's linked nodes, and options seed no hop (optionSeeds off)",
    );
    expect(missed.rationale).toMatch(
      /C \(HBB\) is outside the region: its 1 KG edge\(s\) to the hop's linked nodes, 1 of them beyond the hub cap of 30 triples per linked node were scored but not among the K = 15 selected/,
    );
  });

  it('a count and a yes/no over the same facts', async () => {
    const count = answerOf(await runRegram({ question: "How many genes are associated with both multiple sclerosis and Crohn's disease?" }));
    expect(count.count).toBe(count.items!.length);
    expect(count.text).toBe(String(count.count));
    const yes = answerOf(await runRegram({ question: "Is IL23R associated with Crohn's disease?" }));
    expect(yes).toMatchObject({ text: 'yes', abstained: false });
    expect(yes.evidenceIds.length).toBeGreaterThan(0);
  });
});

describe('ReGraM modes', () => {
  it('kg off: no region, every hop is LLM-GUESS, and the offline engine abstains saying it has no general knowledge', async () => {
    const run = await runRegram({ question: HEADLINE, switches: { kg: false } });
    const answer = answerOf(run);
    expect(answer.abstained).toBe(true);
    expect(answer.rationale).toContain('Based on general knowledge');
    expect(run.evidence.filter((e) => e.channel === 'kg')).toHaveLength(0);
    const [ran, ended] = [ofKind(run, 'regram.hop').filter((h) => h.status !== 'skipped'), ofKind(run, 'regram.hop').filter((h) => h.status === 'skipped')];
    for (const hop of ran) {
      expect(childOf(run, hop, 'regram.mode').output).toMatchObject({ mode: 'LLM-GUESS', nFacts: 0 });
      expect(childrenOf(run, childOf(run, hop, 'regram.candidates')).map((s) => s.status)).toEqual(['skipped']);
    }
    const guess = run.modelCalls.filter((c) => c.template === 'regram.answer-llm-guess');
    expect(guess.length).toBe(ran.length);
    expect(guess.every((c) => (c.parsed as HopAnswer).abstain)).toBe(true);
    // A hop built on one that found nothing is not run on an empty "these": the chain ends, and the run says why.
    const chainEnded = (answer.extra as { chainEnded?: { hop: number; why: string }[] }).chainEnded ?? [];
    expect(chainEnded.map((e) => `Hop ${e.hop}`)).toEqual(ended.map((h) => h.label));
    for (const e of chainEnded) expect(e.why).toMatch(/found no answer|was not run/);
  });

  it('kg and param off: LLM-GUESS is skipped, since it would need general knowledge', async () => {
    const run = await runRegram({ question: HEADLINE, switches: { kg: false, param: false } });
    expect(answerOf(run).abstained).toBe(true);
    expect(run.modelCalls.filter((c) => c.template === 'regram.answer-llm-guess')).toHaveLength(0);
    const skipped = ofKind(run, 'regram.guess');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((s) => s.status === 'skipped')).toBe(true);
  });

  it('the thresholds are parameters: raising strictMinFacts turns 15 facts into HYBRID, with reviewed hypotheses', async () => {
    const run = await runRegram({ question: HEADLINE, params: { strictMinFacts: 20 } });
    expect((run.config as { params: unknown }).params).toEqual(RegramParamsSchema.parse({ strictMinFacts: 20 }));
    const hops = ofKind(run, 'regram.hop');
    for (const hop of hops) {
      expect(childOf(run, hop, 'regram.mode').output).toMatchObject({ mode: 'HYBRID', nFacts: 15 });
      expect(childrenOf(run, hop).map((s) => s.kind)).toContain('regram.hypotheses');
    }
    const outcomes = hops.map((h) => childOf(run, h, 'regram.hypotheses').output as unknown as HypothesisOutcome);
    const records = outcomes.flatMap((o) => o.records);
    expect(records.length).toBeGreaterThan(0);
    expect(outcomes[0].reviewer).toContain("substitute for the paper's LoRA reviewer");
    const hypothesisEvidence = run.evidence.filter((e) => e.kind === 'hypothesis');
    for (const r of records) {
      expect(r.verdict).toBe(r.score >= 0.5 ? 'accepted' : 'rejected');
      expect(r.round).toBeLessThanOrEqual(2);
      // Offline, hypotheses stay in the region and the judge follows the KG check.
      expect(r.check).toMatchObject({ headInRegion: true, tailInRegion: true, relationAllowed: true, kindsFit: true });
      expect(r.verdict === 'accepted').toBe(r.check.inKg === true);
      if (r.parent) expect(records.find((p) => p.id === r.parent)!.revisedBy).toBe(r.id);
      const evidence = hypothesisEvidence.find((e) => e.ref.endsWith(`:${r.id}`) && e.id === r.evidenceId);
      expect(!!evidence).toBe(r.verdict === 'accepted');
      if (evidence) expect(evidence.selected).toBe(true);
    }
    expect(hypothesisEvidence).toHaveLength(records.filter((r) => r.verdict === 'accepted').length);
    // Each review's step keeps its record as the review left it: the revision and the evidence record came later.
    const reviews = hops.flatMap((h) => childrenOf(run, childOf(run, h, 'regram.hypotheses')).filter((s) => s.kind === 'regram.review'));
    expect(reviews.map((s) => (s.output as unknown as HypothesisRecord).id).sort()).toEqual(records.map((r) => r.id).sort());
    expect(records.some((r) => r.revisedBy || r.evidenceId)).toBe(true);
    for (const s of reviews) {
      const reviewed = s.output as unknown as HypothesisRecord;
      expect(reviewed).toEqual({ ...records.find((r) => r.id === reviewed.id), revisedBy: null, evidenceId: null });
    }
  });

  it('the thresholds are parameters: with hybridMinFacts above the region size the hop has no usable facts (LLM-GUESS)', async () => {
    const run = await runRegram({ question: "Which genes are associated with Crohn's disease?", params: { hybridMinFacts: 16, strictMinFacts: 20 } });
    expect(childOf(run, ofKind(run, 'regram.hop')[0], 'regram.mode').output).toMatchObject({ mode: 'LLM-GUESS', nFacts: 15 });
    expect(answerOf(run).abstained).toBe(true);
  });
});

describe('ReGraM over an OpenAI-compatible server', () => {
  let server: ScriptedServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('HYBRID: one hypothesis accepted, one rejected then revised and accepted, one outside the region rejected for good; answers held to the region', async () => {
    const question = 'Which genes are associated with multiple sclerosis?';
    const entitiesOf = (user: string) =>
      /Region entities:\n([\s\S]*?)\n\n/
        .exec(user)![1]
        .split('\n')
        .map((l) => l.replace(/ \([^)]*\)$/, ''));
    let genes: string[] = [];
    server = await startScriptedOpenAIServer((request) => {
      const [system, user] = request.body.messages as { content: string }[];
      switch (system.content) {
        case classifyTemplate.system:
          return reply.ok(JSON.stringify({ category: 'GENE_PROTEIN', reason: 'asks for genes' }));
        case decomposeTemplate.system:
          return reply.ok(JSON.stringify({ analysis: 'one relation from one disease', hops: [{ question, usesHop: null }] }));
        case hypothesizeTemplate.system:
          genes = entitiesOf(user.content).filter((n) => n !== 'multiple sclerosis');
          return reply.ok(
            JSON.stringify({
              triples: [
                { head: 'multiple sclerosis', relation: 'DaG', tail: genes[0] },
                { head: 'multiple sclerosis', relation: 'GiG', tail: genes[1] },
                { head: 'multiple sclerosis', relation: 'DaG', tail: 'Unobtainium' },
              ],
            }),
          );
        case reviewTemplate.system:
          return reply.ok(JSON.stringify({ score: 0.9, reason: 'consistent with the facts' }));
        case reviseTemplate.system:
          return user.content.includes('Unobtainium')
            ? reply.ok(JSON.stringify({ revised: null, note: 'no such entity in the region' }))
            : reply.ok(
                JSON.stringify({ revised: { head: 'multiple sclerosis', relation: 'DaG', tail: genes[1] }, note: 'a disease relates to a gene by DaG' }),
              );
        case answerHybridTemplate.system: {
          const ids = [...user.content.matchAll(/^\[([0-9a-f-]{36})\]/gm)].map((m) => m[1]);
          return reply.ok(
            JSON.stringify({
              answer: `${genes[0]} and Unobtainium`,
              items: [genes[0], 'Unobtainium'],
              evidenceIds: [ids[0], 'not-an-evidence-id'],
              abstain: false,
              rationale: 'Fact, Fact, Connection',
            }),
          );
        }
        case synthesizeTemplate.system: {
          const ids = [...user.content.matchAll(/\[([0-9a-f-]{36})\]/g)].map((m) => m[1]);
          return reply.ok(
            JSON.stringify({
              answer: genes[0],
              optionKey: null,
              items: [genes[0], 'Unobtainium'],
              count: null,
              abstain: false,
              rationale: 'from hop 1',
              claims: [{ text: genes[0], evidenceIds: [ids[0], 'made-up'] }],
            }),
          );
        }
        default:
          return reply.status(500, { message: 'unexpected role' });
      }
    });
    // K = 5 facts: 1 ≤ N_facts < 10, so the hop runs HYBRID.
    const { answer, run } = await runOverServer(server.baseUrl, question, { k: 5 });
    const [hop] = ofKind(run, 'regram.hop');
    expect(childOf(run, hop, 'regram.mode').output).toMatchObject({ mode: 'HYBRID', nFacts: 5 });
    expect(childrenOf(run, hop).map((s) => s.kind)).toEqual([
      'regram.link',
      'regram.candidates',
      'regram.mmr',
      'regram.region',
      'regram.mode',
      'regram.hypotheses',
      'regram.hop-answer',
    ]);

    const hypotheses = childOf(run, hop, 'regram.hypotheses');
    expect((hypotheses.input as { reviewer: string }).reviewer).toContain("substitute for the paper's LoRA reviewer");
    const { records, accepted } = hypotheses.output as unknown as HypothesisOutcome;
    const byId = Object.fromEntries(records.map((r) => [r.id, r]));
    expect(Object.keys(byId)).toEqual(['h1', 'h2', 'h3', 'h2.r1']);
    expect(byId.h1).toMatchObject({ verdict: 'accepted', score: 0.9, round: 0, check: { inRegion: true, inKg: true } });
    // GiG joins two genes: the programmatic check rules it out before any judge is asked.
    expect(byId.h2).toMatchObject({ verdict: 'rejected', score: 0, judge: null, revisedBy: 'h2.r1', check: { relationAllowed: true, kindsFit: false } });
    expect(byId['h2.r1']).toMatchObject({
      verdict: 'accepted',
      parent: 'h2',
      round: 1,
      triple: { head: 'multiple sclerosis', relation: 'DaG', tail: genes[1] },
    });
    expect(byId.h3).toMatchObject({ verdict: 'rejected', score: 0, revisedBy: null, check: { tailInRegion: false } });
    expect(childrenOf(run, hypotheses).map((s) => s.label)).toEqual([
      'Generate hypotheses',
      'Review h1',
      'Review h2',
      'Review h3',
      'Revise h2',
      'Revise h3',
      'Review h2.r1',
    ]);
    const judged = run.modelCalls.filter((c) => c.template === 'regram.review');
    expect(judged).toHaveLength(2);
    // Review h2's step keeps the record as the review left it: its revision came later (and is on the hypotheses' copy).
    const reviewH2 = childrenOf(run, hypotheses).find((s) => s.label === 'Review h2')!;
    expect(reviewH2.output).toEqual({ ...byId.h2, revisedBy: null });

    // Only accepted hypotheses are evidence, selected, of kind 'hypothesis'.
    const hypothesisEvidence = run.evidence.filter((e) => e.kind === 'hypothesis');
    expect(hypothesisEvidence.map((e) => e.id).sort()).toEqual(accepted.map((a) => a.id).sort());
    expect(hypothesisEvidence.map((e) => e.ref).sort()).toEqual(['hypothesis:hop1:h1', 'hypothesis:hop1:h2.r1']);
    expect(hypothesisEvidence.every((e) => e.selected && e.channel === 'kg')).toBe(true);

    // The region is a hard boundary: the entity and ids outside it are dropped from the hop answer and the final answer.
    const hopAnswer = childOf(run, hop, 'regram.hop-answer').output as { answer: HopAnswer; outside: { items: string[]; evidenceIds: string[] } };
    expect(hopAnswer.answer.items).toEqual([genes[0]]);
    expect(hopAnswer.outside).toEqual({ items: ['Unobtainium'], evidenceIds: ['not-an-evidence-id'] });
    expect(answer.items).toEqual([genes[0]]);
    expect(answer.claims[0].evidenceIds).not.toContain('made-up');
    expect(answer.claims[0].evidenceIds).toHaveLength(1);
    expect(answer.abstained).toBe(false);
  });

  it('a single answer under two relations ("which compound binds HTR2A and treats migraine"): with the aids on, the synthesis is shown the KG\'s intersection, marked as an aid; with them off, region facts only', async () => {
    const question = 'Which compound that binds the HTR2A gene is used to treat migraine?';
    const [htr2a, migraine] = await Promise.all([nodeId('HTR2A', 'Gene'), nodeId('migraine', 'Disease')]);
    const binders = await kgNeighbours(htr2a, 'CbG');
    const both = [...(await kgNeighbours(migraine, 'CtD'))].filter((id) => binders.has(id)).sort();
    expect(both.length).toBeGreaterThan(0);
    let synthesis = '';
    server = await startScriptedOpenAIServer((request) => {
      const [system, user] = request.body.messages as { content: string }[];
      switch (system.content) {
        case classifyTemplate.system:
          return reply.ok(JSON.stringify({ category: 'DRUG_THERAPY', reason: 'a drug for a disease' }));
        case decomposeTemplate.system:
          // As a model splits it: the binders first, then those of them that treat migraine.
          return reply.ok(
            JSON.stringify({
              analysis: 'binders, then migraine',
              hops: [
                { question: 'Which compounds bind the HTR2A gene?', usesHop: null },
                { question: 'Which of these compounds treat migraine?', usesHop: 1 },
              ],
            }),
          );
        case synthesizeTemplate.system:
          synthesis = user.content;
          return reply.ok(JSON.stringify({ answer: '', optionKey: null, items: [], count: null, abstain: true, rationale: 'scripted', claims: [] }));
        case hypothesizeTemplate.system:
          return reply.ok(JSON.stringify({ triples: [] }));
        default: {
          // A hop answer citing the first two facts it was shown, so the evidence map holds region facts.
          const ids = [...user.content.matchAll(/^\[([^\]\s]+)\] /gm)].map((m) => m[1]).slice(0, 2);
          return reply.ok(JSON.stringify({ answer: ids.length ? 'scripted' : '', items: [], evidenceIds: ids, abstain: !ids.length, rationale: 'scripted' }));
        }
      }
    });
    // The paper's method: the synthesis reads the evidence map, whose facts all lie in the hops' regions.
    const { run: paper } = await runOverServer(server.baseUrl, question, { maxHops: 2, k: 5 });
    expect(paper.evidence.some((e) => e.kind === 'set' || e.channel === 'aids')).toBe(false);
    expect(synthesis).not.toMatch(/answer set|Hopscope aid/i);
    const regionIds = new Set(
      paper.steps.filter((s) => s.kind === 'regram.region').flatMap((s) => (s.output as { facts: { id: string }[] }).facts.map((f) => f.id)),
    );
    // This client sends record ids as they are (no citation index): each map line's id is a region fact's.
    const shown = [...synthesis.matchAll(/^\s*\[([^\]]+)\] /gm)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(regionIds.has(id)).toBe(true);

    const { run } = await runOverServer(server.baseUrl, question, { maxHops: 2, k: 5 }, { ...FULL_SWITCHES, aids: true });
    const set = run.evidence.find((e) => e.kind === 'set')!;
    expect(set).toMatchObject({ channel: 'aids', cite: expect.stringMatching(/^A\d+$/) });
    expect((set.data as { members: { id: string }[] }).members.map((m) => m.id).sort()).toEqual(both);
    expect(synthesis).toContain("Hopscope aid, not part of the method: complete answer set from the KG, outside the hops' regions");
    expect(synthesis).toContain(`[${set.id}] Complete answer set in the KG: ${both.length} Compound`);
    // One hop limit, the run's: the system prompt names no other number.
    const [decompose] = server.requests
      .filter((r) => r.body.messages[0].content === decomposeTemplate.system)
      .map((r) => r.body.messages as { content: string }[]);
    expect(decompose[1].content).toContain('Hop limit: at most 2 hops.');
    expect(decompose[0].content).not.toMatch(/\b(one|two|three|four|five|\d+)\b[^.]*\bhops?\b|\bup to (one|two|three|\d+)\b/i);
  });

  it('falls back to one hop, and records why, when the decomposition cannot be parsed', async () => {
    const question = "Which genes are associated with Crohn's disease?";
    server = await startScriptedOpenAIServer((request) => {
      const [system] = request.body.messages as { content: string }[];
      switch (system.content) {
        case classifyTemplate.system:
          return reply.ok(JSON.stringify({ category: 'DISEASE_SYMPTOM', reason: 'disease genes' }));
        case decomposeTemplate.system:
          return reply.ok("Hop 1: genes of Crohn's disease (no JSON here)");
        default:
          return reply.ok(
            JSON.stringify({ answer: '', items: [], evidenceIds: [], abstain: true, rationale: 'stop here', optionKey: null, count: null, claims: [] }),
          );
      }
    });
    const { run } = await runOverServer(server.baseUrl, question, {});
    const plan = ofKind(run, 'regram.decompose')[0].output as { hops: { question: string }[]; fallback: string };
    expect(plan.hops).toEqual([{ hop: 1, question, usesHop: null }]);
    expect(plan.fallback).toContain('could not be parsed');
    expect(ofKind(run, 'regram.hop')).toHaveLength(1);
  });
});

describe('ReGraM ablations and paper settings', () => {
  const question = "Which genes are associated with Crohn's disease?";

  it('w/o multi-hop: no decomposition call, the whole question is the one hop', async () => {
    const run = await runRegram({ question: HEADLINE, params: { multiHop: false } });
    const [decompose] = ofKind(run, 'regram.decompose');
    expect(decompose.status).toBe('skipped');
    const hops = ofKind(run, 'regram.hop');
    expect(hops).toHaveLength(1);
    expect((hops[0].input as { question: string }).question).toBe(HEADLINE);
    expect(run.modelCalls.some((c) => c.template === decomposeTemplate.id)).toBe(false);
  });

  it('w/o domain prior: no domain typing, every relation weighs 1', async () => {
    const run = await runRegram({ question, params: { domainPrior: false } });
    expect(ofKind(run, 'regram.domain')[0].status).toBe('skipped');
    const table = childOf(run, ofKind(run, 'regram.hop')[0], 'regram.mmr').output as unknown as CandidateTable;
    expect(table.rows.length).toBeGreaterThan(15);
    expect(table.rows.every((r) => r.wR === 1)).toBe(true);
  });

  it('w/o MMR: the region is the top K by relevance, no redundancy term', async () => {
    const run = await runRegram({ question, params: { mmr: false } });
    const table = childOf(run, ofKind(run, 'regram.hop')[0], 'regram.mmr').output as unknown as CandidateTable;
    expect(table.mmr).toBe(false);
    expect(table.rows.every((r) => r.redundancy === 0)).toBe(true);
    const selected = table.rows.filter((r) => r.selected);
    expect(selected).toHaveLength(15);
    const floor = Math.min(...selected.map((r) => r.relevance));
    expect(table.rows.filter((r) => !r.selected).every((r) => r.relevance <= floor)).toBe(true);
  });

  it('hop depth H is a parameter up to 10 (Table 10)', () => {
    expect(RegramParamsSchema.parse({ maxHops: 10 }).maxHops).toBe(10);
    expect(RegramParamsSchema.safeParse({ maxHops: 11 }).success).toBe(false);
  });
});

describe('ReGraM Reviewer edge cases over an OpenAI-compatible server', () => {
  let server: ScriptedServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  /** A one-hop HYBRID run whose hypothesiser proposes one triple inside the region's schema and two outside it. */
  async function hybridRun(params: Record<string, unknown>) {
    const question = 'Which genes are associated with multiple sclerosis?';
    const bodies: Record<string, unknown>[] = [];
    let genes: string[] = [];
    server = await startScriptedOpenAIServer((request) => {
      bodies.push(request.body);
      const [system, user] = request.body.messages as { content: string }[];
      switch (system.content) {
        case classifyTemplate.system:
          return reply.ok(JSON.stringify({ category: 'GENE_PROTEIN', reason: 'asks for genes' }));
        case decomposeTemplate.system:
          return reply.ok(JSON.stringify({ analysis: 'one relation', hops: [{ question, usesHop: null }] }));
        case hypothesizeTemplate.system:
          genes = /Region entities:\n([\s\S]*?)\n\n/
            .exec(user.content)![1]
            .split('\n')
            .map((l) => l.replace(/ \([^)]*\)$/, ''))
            .filter((n) => n !== 'multiple sclerosis');
          return reply.ok(
            JSON.stringify({
              triples: [
                { head: 'multiple sclerosis', relation: 'DaG', tail: genes[0] },
                { head: 'multiple sclerosis', relation: 'GiG', tail: genes[1] },
                { head: 'multiple sclerosis', relation: 'DaG', tail: 'Unobtainium' },
              ],
            }),
          );
        case reviewTemplate.system:
          return reply.ok(JSON.stringify({ score: 0, reason: 'no support' }));
        case reviseTemplate.system:
          return reply.ok(JSON.stringify({ revised: null, note: 'nothing better' }));
        default:
          return reply.ok(
            JSON.stringify({ answer: '', items: [], evidenceIds: [], abstain: true, rationale: 'stop', optionKey: null, count: null, claims: [] }),
          );
      }
    });
    const { run } = await runOverServer(server.baseUrl, question, { k: 5, ...params });
    const outcome = childOf(run, ofKind(run, 'regram.hop')[0], 'regram.hypotheses').output as unknown as HypothesisOutcome;
    return { run, outcome, bodies };
  }

  it('acceptScore = 0 accepts the judged hypothesis only: one outside the schema or the region is never accepted (no crash)', async () => {
    const { run, outcome, bodies } = await hybridRun({ acceptScore: 0 });
    const byId = Object.fromEntries(outcome.records.map((r) => [r.id, r]));
    expect(byId.h1).toMatchObject({ verdict: 'accepted', score: 0 });
    expect(byId.h2).toMatchObject({ verdict: 'rejected', judge: null });
    expect(byId.h3).toMatchObject({ verdict: 'rejected', judge: null });
    expect(run.evidence.filter((e) => e.kind === 'hypothesis').map((e) => e.ref)).toEqual(['hypothesis:hop1:h1']);
    // Every role runs at the paper's inference settings.
    expect(bodies.every((b) => b.temperature === 0.3 && b.top_p === 0.9)).toBe(true);
  });

  it('w/o Reviewer: no judge and no revision; hypotheses inside the schema are kept as unreviewed, the rest dropped', async () => {
    const { run, outcome } = await hybridRun({ reviewer: false });
    expect(run.modelCalls.some((c) => c.template === reviewTemplate.id || c.template === reviseTemplate.id)).toBe(false);
    expect(outcome.records.map((r) => [r.id, r.verdict])).toEqual([
      ['h1', 'unreviewed'],
      ['h2', 'rejected'],
      ['h3', 'rejected'],
    ]);
    const kept = run.evidence.filter((e) => e.kind === 'hypothesis');
    expect(kept.map((e) => e.ref)).toEqual(['hypothesis:hop1:h1']);
    expect(kept[0].text).toContain('unreviewed');
  });
});

/** Runs ReGraM on `question` through the scripted OpenAI-compatible server at `baseUrl`; its answer and stored run. */
describe("ReGraM with the endpoint's embeddings (HOPSCOPE_EMBEDDING_MODEL)", () => {
  const question = 'Which genes are associated with multiple sclerosis?';
  const apiKey = 'sk-regram-embedding-secret-0123456789';
  const failing = `emb-missing-${randomUUID()}`;
  // The designed case: the embedding puts the hop's query and the `favoured` triples on one extra axis, as a
  // model that knows something lexical overlap does not would; every other direction is the text's bag of words.
  let favoured = new Set<string>();
  let queries = new Set<string>();
  const vector = (text: string) => [...bagOfWordsVector(text), queries.has(text) || favoured.has(text) ? 1 : 0];
  const cos = (a: string, b: string) => vectorCosine(Float32Array.from(vector(a)), Float32Array.from(vector(b)));
  let server: ScriptedServer;

  beforeAll(async () => {
    server = await startScriptedOpenAIServer(
      (request) => {
        const [system, user] = request.body.messages as { content: string }[];
        const ids = [...user.content.matchAll(/\[([0-9a-f-]{36})\]/g)].map((m) => m[1]);
        switch (system.content) {
          case classifyTemplate.system:
            return reply.ok(JSON.stringify({ category: 'DISEASE_SYMPTOM', reason: 'a disease' }));
          case answerStrictTemplate.system:
            return reply.ok(JSON.stringify({ answer: 'the region genes', items: [], evidenceIds: ids.slice(0, 1), abstain: false, rationale: 'Fact' }));
          case synthesizeTemplate.system:
            return reply.ok(
              JSON.stringify({
                answer: 'the region genes',
                optionKey: null,
                items: [],
                count: null,
                abstain: false,
                rationale: 'from hop 1',
                claims: [{ text: 'the region genes', evidenceIds: ids.slice(0, 1) }],
              }),
            );
          default:
            return reply.status(500, { message: 'unexpected role' });
        }
      },
      {
        embeddings: {
          vector,
          replies: (r) =>
            r.body.model === failing
              ? reply.status(404, { message: `The model ${failing} does not exist or you have no access (key ${apiKey})` })
              : { kind: 'vectors' },
        },
      },
    );
  });
  afterAll(() => server.close());

  const embeddingRequests = () => server.requests.filter((r) => r.path.endsWith('/embeddings'));
  const tableOf = (run: RunRecord) => childOf(run, ofKind(run, 'regram.hop')[0], 'regram.mmr').output as unknown as CandidateTable;
  async function runWith(embeddingModel: string | undefined): Promise<RunRecord> {
    const restore = setScriptedModelEnv(server, { model: 'scripted-regram', apiKey, embeddingModel });
    try {
      return await runRegram({ question, backend: 'openai', params: { multiHop: false } });
    } finally {
      restore();
    }
  }

  it('takes Sim from the embeddings, says so in the trace and the run, selects by them, and embeds nothing again on a rerun', async () => {
    const lexical = await runWith(undefined);
    const lexicalTable = tableOf(lexical);
    expect(lexicalTable.similarity).toMatchObject({ kind: 'lexical', why: 'fallback: no HOPSCOPE_EMBEDDING_MODEL' });
    expect(answerOf(lexical).extra!.similarity).toBe('lexical (fallback: no HOPSCOPE_EMBEDDING_MODEL)');
    expect(embeddingRequests()).toHaveLength(0);
    queries = new Set(lexicalTable.queries);
    favoured = new Set(lexicalTable.rows.filter((r) => !r.selected).map((r) => r.simText));
    expect(favoured.size).toBeGreaterThan(0);

    const model = `emb-${randomUUID()}`;
    const run = await runWith(model);
    expect((run.config as { backend: { embeddingModel?: string } }).backend.embeddingModel).toBe(model);
    expect(answerOf(run).extra!.similarity).toBe(`embedding:${model}`);
    const table = tableOf(run);
    expect(table.similarity).toMatchObject({
      kind: `embedding:${model}`,
      vectors: { texts: table.rows.length + table.queries.length, cached: 0, embedded: table.rows.length + table.queries.length },
    });
    expect(embeddingRequests().every((r) => r.body.model === model)).toBe(true);
    // Each embedding request is one of the run's model calls, on the step that asked for the similarity, with its tokens.
    const embedCalls = run.modelCalls.filter((c) => c.role === 'embed');
    expect(embedCalls).toHaveLength(embeddingRequests().length);
    const mmrSteps = new Set(ofKind(run, 'regram.mmr').map((s) => s.id));
    expect(embedCalls.every((c) => mmrSteps.has(c.stepId!) && c.tokensIn > 0 && c.model === model)).toBe(true);
    expect(JSON.stringify(embedCalls)).not.toContain(apiKey);
    // Sim(q_i, t) and Sim(t, t') are the cosines of the server's vectors.
    const byRank = table.rows.filter((r) => r.selected).sort((a, b) => a.rank! - b.rank!);
    for (const r of table.rows) expect(r.sim).toBeCloseTo(Math.max(...table.queries.map((q) => cos(q, r.simText))), 5);
    for (const [i, r] of byRank.entries()) {
      const redundancy = i ? (1 - table.lambda) * Math.max(...byRank.slice(0, i).map((c) => cos(r.simText, c.simText))) : 0;
      expect(r.redundancy).toBeCloseTo(redundancy, 5);
    }
    // The region follows the embeddings: the triples lexical Sim left out come first.
    const selected = byRank.map((r) => r.simText);
    expect(selected.slice(0, Math.min(table.k, favoured.size)).every((t) => favoured.has(t))).toBe(true);
    expect(new Set(selected)).not.toEqual(new Set(lexicalTable.rows.filter((r) => r.selected).map((r) => r.simText)));

    // A rerun finds every vector in Postgres.
    const sent = embeddingRequests().length;
    const again = tableOf(await runWith(model));
    expect(embeddingRequests()).toHaveLength(sent);
    expect(again.similarity.vectors).toMatchObject({ cached: table.rows.length + table.queries.length, embedded: 0, requests: 0 });
    expect(again.rows.filter((r) => r.selected).map((r) => r.simText)).toEqual(table.rows.filter((r) => r.selected).map((r) => r.simText));
  });

  it('falls back to lexical for the run when the embedding endpoint fails, says why, and keeps the key out of the trace', async () => {
    const run = await runWith(failing);
    const table = tableOf(run);
    expect(table.similarity.kind).toBe('lexical');
    expect(table.similarity.why).toMatch(/^fallback: the embedding endpoint failed \(config: .*does not exist.*\); lexical for the rest of this run$/);
    expect(answerOf(run).extra!.similarity).toMatch(/^lexical \(fallback: the embedding endpoint failed/);
    // Lexical Sim: the same table as a run with no embedding model.
    const index = new Bm25Index(table.rows.map((r) => r.simText));
    const [q] = table.queries;
    const ideal = [...new Set(contentTerms(q))].reduce((sum, t) => sum + index.idf(t), 0);
    for (const [i, r] of table.rows.entries()) expect(r.sim).toBeCloseTo(Math.min(1, index.score(q, i) / ideal), 9);
    // The server echoed the key in its error; nothing stored for the run holds it.
    const stored = await (await getPrisma()).run.findUniqueOrThrow({ where: { id: run.id }, include: { modelCalls: true } });
    expect(JSON.stringify([stored, await readTrace(run.id)])).not.toContain(apiKey);
    expect(JSON.stringify(stored.config)).toContain(failing);
  });
});

async function runOverServer(baseUrl: string, question: string, params: Record<string, unknown>, switches: Switches = FULL_SWITCHES) {
  const row = await (
    await getPrisma()
  ).run.create({
    data: { shareId: newShareId(), questionText: question, input: {}, method: 'regram', config: {}, configHash: 'test', status: 'running' },
  });
  // As a run's executor opens it: no step waits for its write, which is built once the next call's request is out.
  const trace = await TraceRecorder.open(row.id, { everyStepWaits: false });
  const model = new ModelClient(new OpenAIBackend({ baseUrl, apiKey: 'k', model: 'm', timeoutMs: 10_000 }));
  const answer = await regram.run({
    question: { text: question, options: null, answerType: 'open', documentIds: [], questionId: null },
    params: RegramParamsSchema.parse(params),
    channels: new Channels({ switches, kgShuffle: null, trace, model, documentIds: [] }),
    model,
    trace,
    backend: 'openai',
  });
  await trace.flush();
  return { answer, run: await getRunRecord({ id: row.id }) };
}
