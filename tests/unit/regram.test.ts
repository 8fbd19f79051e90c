import { beforeAll, describe, expect, it } from 'vitest';
import { levenshteinRatio } from '@/lib/methods/regram/fuzzy';
import { instantiate } from '@/lib/methods/regram/anchors';
import { holdToRegion } from '@/lib/methods/regram/boundary';
import { compareCandidates, weightedMmr, type CandidateRow, type MmrCandidate } from '@/lib/methods/regram/mmr';
import { LEXICAL_WHY, LexicalSimilarity } from '@/lib/llm/similarity';
import { answerHopFromFacts } from '@/lib/methods/regram/offline/answering';
import { decomposeQuestion } from '@/lib/methods/regram/offline/planning';
import { readHop } from '@/lib/methods/regram/offline/reading';
import { hypothesizeCompletions, reviseRelation } from '@/lib/methods/regram/offline/reviewing';
import { chooseMode, formRegion } from '@/lib/methods/regram/region';
import { orientedTriple, resolveTriple } from '@/lib/methods/regram/review';
import type { HopMemory, HopQuestion } from '@/lib/methods/regram/templates';
import type { TripleData } from '@/lib/trace/types';

const node = (id: string, name: string, kind: string) => ({ id, name, kind });
const ASTHMA = node('Disease::DOID:2841', 'asthma', 'Disease');
const IL13 = node('Gene::3596', 'IL13', 'Gene');
const IL4 = node('Gene::3565', 'IL4', 'Gene');
const ORMDL3 = node('Gene::94103', 'ORMDL3', 'Gene');
const COUGH = node('Symptom::D003371', 'Cough', 'Symptom');
const PREDNISONE = node('Compound::DB00635', 'Prednisone', 'Compound');

let edgeId = 0;
function triple(source: ReturnType<typeof node>, metaedge: string, verb: string, target: ReturnType<typeof node>): TripleData {
  return {
    edgeId: ++edgeId,
    sourceId: source.id,
    sourceName: source.name,
    sourceKind: source.kind,
    metaedge,
    verb,
    targetId: target.id,
    targetName: target.name,
    targetKind: target.kind,
  };
}
/** Weighted MMR under the lexical similarity (the offline engine's). */
async function lexicalMmr(queries: string[], candidates: MmrCandidate[], opts: Parameters<typeof weightedMmr>[3]): Promise<CandidateRow[]> {
  return weightedMmr(queries, candidates, await compareCandidates(new LexicalSimilarity(LEXICAL_WHY.offline), queries, candidates), opts);
}
function candidate(t: TripleData): MmrCandidate {
  return { id: `ev-${t.edgeId}`, text: `${t.sourceName} (${t.sourceKind}) – ${t.verb} – ${t.targetName} (${t.targetKind})`, triple: t };
}

describe('weighted MMR', () => {
  let rows: CandidateRow[];
  beforeAll(async () => {
    rows = await lexicalMmr(
      ['Which genes are associated with asthma?'],
      [
        triple(ASTHMA, 'DaG', 'associates', IL13),
        triple(ASTHMA, 'DaG', 'associates', IL4),
        triple(ASTHMA, 'DpS', 'presents', COUGH),
        triple(PREDNISONE, 'CtD', 'treats', ASTHMA),
      ].map(candidate),
      { lambda: 0.7, k: 3, domain: 'DISEASE_SYMPTOM' },
    );
  });

  it('selects K greedily, the most relevant first, with no redundancy term for the first', () => {
    expect(rows.filter((r) => r.selected)).toHaveLength(3);
    const first = rows.find((r) => r.rank === 1)!;
    expect(first.relation).toBe('DaG');
    expect(first).toMatchObject({ redundancy: 0, nearest: null });
    expect(first.relevance).toBeCloseTo(0.7 * first.sim * 1.3, 12);
  });

  it('charges later picks (1 − λ)·max Sim to what was already selected', () => {
    for (const r of rows) expect(r.mmr).toBeCloseTo(r.relevance - r.redundancy, 12);
    const second = rows.find((r) => r.rank === 2)!;
    expect(second.redundancy).toBeGreaterThan(0);
    expect(second.nearest).toBe(rows.find((r) => r.rank === 1)!.evidenceId);
    // The unselected row's terms are against every selected triple.
    const unselected = rows.find((r) => !r.selected)!;
    expect(unselected.rank).toBeNull();
  });

  it('weights relevance by the domain column: Treats counts 1.2 for DISEASE_SYMPTOM, 1.5 for DRUG_THERAPY', async () => {
    expect(rows.find((r) => r.relation === 'CtD')!.wR).toBe(1.2);
    const drug = await lexicalMmr(['Which drugs treat asthma?'], [candidate(triple(PREDNISONE, 'CtD', 'treats', ASTHMA))], {
      lambda: 0.7,
      k: 1,
      domain: 'DRUG_THERAPY',
    });
    expect(drug[0]).toMatchObject({ wR: 1.5, category: 'Treats', rank: 1 });
  });
});

describe('hop questions about earlier answers', () => {
  it('are read once per anchor, its name in place of "these <kind>", and Sim takes the best reading', async () => {
    const anchors = [IL13, IL4].map((g) => ({ name: g.name, kind: g.kind }));
    expect(instantiate('Which of these genes are associated with asthma?', anchors)).toEqual([
      'Which of IL13 are associated with asthma?',
      'Which of IL4 are associated with asthma?',
    ]);
    expect(instantiate('Which diseases are linked?', anchors)).toEqual(['Which diseases are linked? (IL13)', 'Which diseases are linked? (IL4)']);
    const candidates = [triple(ASTHMA, 'DaG', 'associates', IL13), triple(ASTHMA, 'DaG', 'associates', ORMDL3)].map(candidate);
    const both = await lexicalMmr(instantiate('Which of these genes are associated with asthma?', anchors), candidates, {
      lambda: 0.7,
      k: 1,
      domain: 'DISEASE_SYMPTOM',
    });
    const [withAnchor, without] = both;
    expect(withAnchor.sim).toBeGreaterThan(without.sim);
    expect(withAnchor.rank).toBe(1);
  });
});

describe('region and mode', () => {
  const facts = [triple(ASTHMA, 'DaG', 'associates', IL13), triple(ASTHMA, 'DaG', 'associates', IL4)].map((t) => ({
    id: `ev-${t.edgeId}`,
    text: t.verb,
    triple: t,
  }));
  const region = formRegion(facts, new Set([ASTHMA.id]));

  it('V_q is the end nodes of E_q, seeds marked; R holds the relations between its kinds', () => {
    expect(region.nodes.map((n) => [n.name, n.seed])).toEqual([
      ['asthma', true],
      ['IL13', false],
      ['IL4', false],
    ]);
    expect(region.relations.map((r) => r.metaedge).sort()).toEqual(['DaG', 'DdG', 'DrD', 'DuG', 'GcG', 'GiG', 'Gr>G'].sort());
  });

  it('picks the mode by N_facts with the thresholds given', () => {
    const paper = { strictMinFacts: 10, hybridMinFacts: 1 };
    expect([10, 9, 1, 0].map((n) => chooseMode(n, paper).mode)).toEqual(['KG-STRICT', 'HYBRID', 'HYBRID', 'LLM-GUESS']);
    expect(chooseMode(15, { strictMinFacts: 20, hybridMinFacts: 1 }).mode).toBe('HYBRID');
  });

  it('resolves a hypothesis to region entities, turning an undirected relation written backwards round', () => {
    const { resolved, check } = resolveTriple({ head: 'il13', relation: 'DaG', tail: 'Asthma' }, region);
    expect(check).toEqual({ headInRegion: true, tailInRegion: true, relationAllowed: true, kindsFit: true, inRegion: true });
    expect([resolved.source!.name, resolved.target!.name]).toEqual(['asthma', 'IL13']);
    expect(resolveTriple({ head: 'asthma', relation: 'GiG', tail: 'IL13' }, region).check).toMatchObject({ relationAllowed: true, kindsFit: false });
    expect(resolveTriple({ head: 'asthma', relation: 'DaG', tail: 'TP53' }, region).check).toMatchObject({ tailInRegion: false, kindsFit: false });
  });

  it("shows the judge a triple written backwards in its metaedge's direction, and one written forwards as it is", () => {
    const backwards = { head: 'IL13', relation: 'DaG', tail: 'asthma' };
    expect(orientedTriple(backwards, resolveTriple(backwards, region).resolved)).toEqual({ head: 'asthma', relation: 'DaG', tail: 'IL13' });
    const forwards = { head: 'asthma', relation: 'DaG', tail: 'IL13' };
    expect(orientedTriple(forwards, resolveTriple(forwards, region).resolved)).toEqual(forwards);
    // Two genes: either way round is the metaedge's way.
    const genes = { head: 'IL4', relation: 'GiG', tail: 'IL13' };
    expect(orientedTriple(genes, resolveTriple(genes, region).resolved)).toEqual(genes);
  });

  it('holds an answer to the region: outside entities and ids dropped, the text rewritten, abstaining when nothing is left', () => {
    const ids = new Set(facts.map((f) => f.id));
    const bounded = holdToRegion({ answer: 'IL13 and TP53', items: ['IL13', 'TP53'], abstain: false, rationale: 'r' }, [facts[0].id, 'x'], {
      entities: region.nodes,
      evidenceIds: ids,
    });
    expect(bounded.answer).toMatchObject({ answer: 'IL13', items: ['IL13'], abstain: false });
    expect(bounded.outside).toEqual({ items: ['TP53'], evidenceIds: ['x'] });
    expect(bounded.cited).toEqual([facts[0].id]);
    const none = holdToRegion({ answer: 'TP53', items: ['TP53'], abstain: false, rationale: '' }, [], { entities: region.nodes, evidenceIds: ids });
    expect(none.answer).toMatchObject({ answer: '', abstain: true });
  });
});

describe('offline rules', () => {
  const link = (n: ReturnType<typeof node>, question: string) => {
    const start = question.indexOf(n.name);
    return { nodeId: n.id, kind: n.kind, name: n.name, mention: n.name, start, end: start + n.name.length };
  };
  const prior = (items: ReturnType<typeof node>[]): HopMemory => ({
    hop: 1,
    question: 'earlier',
    mode: 'KG-STRICT',
    answer: items.map((i) => i.name).join('; '),
    items: items.map((i) => ({ nodeId: i.id, name: i.name, kind: i.kind })),
    abstained: false,
  });
  const hop = (question: string, links: ReturnType<typeof link>[], before: HopMemory | null): HopQuestion => ({
    hop: 2,
    question,
    links,
    prior: before,
    context: before ? [before] : [],
  });

  it('"these genes" asked for narrows to the earlier answers; "these diseases" asked from reads each earlier answer in its place', () => {
    const q1 = 'Which of these genes are associated with asthma?';
    const narrowed = readHop(hop(q1, [link(ASTHMA, q1)], prior([IL13, ORMDL3])));
    expect([...narrowed.keep!]).toEqual([IL13.id, ORMDL3.id]);
    const q2 = 'Which compounds treat these diseases?';
    const pooled = readHop(hop(q2, [], prior([ASTHMA])));
    expect(pooled.keep).toBeNull();
    expect(pooled.readings.map((u) => u.question)).toEqual(['Which compounds treat asthma?']);
    expect(pooled.readings[0].anchors[0]).toMatchObject({ entity: { nodeId: ASTHMA.id }, metaedges: ['CtD'] });
  });

  it('answers a narrowing hop from its facts, among the earlier answers only', () => {
    const q = 'Which of these genes are associated with asthma?';
    const facts = [triple(ASTHMA, 'DaG', 'associates', IL13), triple(ASTHMA, 'DaG', 'associates', IL4)].map((t) => ({
      id: `ev-${t.edgeId}`,
      text: t.verb,
      triple: t,
    }));
    const answer = answerHopFromFacts({ hop: hop(q, [link(ASTHMA, q)], prior([IL13, ORMDL3])), facts });
    expect(answer).toMatchObject({ items: ['IL13'], evidenceIds: [facts[0].id], abstain: false });
  });

  it("hypothesises the hop's own relation between its anchor and unjoined region entities, and revises to the next relation the schema allows", () => {
    const q = 'Which genes are associated with asthma?';
    const facts = [triple(ASTHMA, 'DaG', 'associates', IL13), triple(IL13, 'GiG', 'interacts', IL4)].map((t) => ({
      id: `ev-${t.edgeId}`,
      text: t.verb,
      triple: t,
    }));
    const region = formRegion(facts, new Set([ASTHMA.id]));
    const { triples } = hypothesizeCompletions({ hop: hop(q, [link(ASTHMA, q)], null), facts, entities: region.nodes, relations: region.relations, max: 5 });
    expect(triples).toEqual([{ head: 'asthma', relation: 'DaG', tail: 'IL4' }]);
    const revised = reviseRelation({ triple: triples[0], relations: region.relations, entities: region.nodes, tried: triples });
    expect(revised.revised).toEqual({ head: 'asthma', relation: 'DuG', tail: 'IL4' });
  });

  it('gives no hops for a question it cannot read, so the controller falls back to one hop', () => {
    const frame = { question: 'What is going on here?', options: null, entities: [], optionLinks: {} };
    expect(decomposeQuestion({ frame, maxHops: 3 }).hops).toEqual([]);
  });
});

describe('ReGraM fuzzy linking', () => {
  it("is RapidFuzz's Levenshtein ratio: 100·(1 − indel distance / total length), case-folded", () => {
    expect(levenshteinRatio('Crohns disease', "Crohn's disease")).toBeCloseTo(96.6, 1);
    expect(levenshteinRatio('lupus', 'Lupus')).toBe(100);
    // One substitution costs two indels: "kitten"/"sitting" share 4 of 13 characters' LCS → 100·8/13.
    expect(levenshteinRatio('kitten', 'sitting')).toBeCloseTo(61.5, 1);
    expect(levenshteinRatio('pressure', 'head pressure')).toBeLessThan(90);
  });
});
