/**
 * ReGraM's weighted MMR (regram.txt Eq. 1), greedy:
 *   MMR(t) = λ·Sim(q_i, t)·w_r − (1 − λ)·max_{t' ∈ S} Sim(t, t')
 * The paper's Sim is the cosine of Sentence-BERT embeddings: with an embedding
 * model configured it is the cosine of the endpoint's embeddings of q_i and
 * the textified triples. Otherwise (lib/llm/similarity) Sim(q_i, t) is the
 * BM25 of the triple for q_i over that of a triple covering every term of q_i
 * (BM25 rewards covering more of the question, where a TF-IDF cosine favours
 * short triples that share just a name), and Sim(t, t') the cosine of their
 * term counts: two triples that differ only in one entity ("PARP1 / SMAD3
 * participates in Generic Transcription Pathway") are near duplicates, as
 * their embeddings would be. A hop built on earlier answers has one q_i per
 * answer (see instantiate); a triple's Sim is its best. Given the
 * comparison's scores (recorded with the table), the selection is pure.
 */

import { normalise } from '@/lib/llm/offline/text';
import type { RelationCategory, RelationDomain } from '@/lib/kg/metaedge-categories';
import { metaedgeInfo, metaedges, relationCategory, relationWeight } from '@/lib/llm/offline/metaedges';
import type { Comparison, Similarity } from '@/lib/llm/similarity';
import type { TripleData } from '@/lib/trace/types';

/** How equal MMR scores are ordered, recorded with every candidate table. */
export const TIE_BREAK =
  "equal MMR: the higher relevance λ·Sim·w_r first, then a triple whose two ends one reading of q_i names (the hop's entity with an option), then the earlier retrieval order (the hub cap's order: relation rank, then the better-connected neighbour)";

/** w_r for the domain; 1 for every relation without the domain prior (ablation). */
export function priorWeight(metaedge: string, domain: RelationDomain | null): number {
  return domain ? relationWeight(metaedge, domain) : 1;
}

/** A candidate as MMR sees it. */
export interface MmrCandidate {
  id: string;
  /** The evidence text of the triple. */
  text: string;
  triple: TripleData;
}

/** One row of the candidate table. */
export interface CandidateRow {
  evidenceId: string;
  edgeId: number;
  source: string;
  relation: string;
  target: string;
  category: RelationCategory | null;
  wR: number;
  /** The textified triple Sim compares. */
  simText: string;
  sim: number;
  /** λ·Sim(q_i, t)·w_r */
  relevance: number;
  /** (1 − λ)·max Sim(t, t') over the triples selected before it (all selected ones, for an unselected triple). */
  redundancy: number;
  mmr: number;
  /** The selected triple t' behind the redundancy term. */
  nearest: string | null;
  /** 1-based selection order; null when not selected. */
  rank: number | null;
  /** Position in T_cand's retrieval order, the tie-break's last key. */
  order: number;
  /** One reading of q_i names both ends of the triple (with an MCQ option, the option and the hop's entity): a tie-break key before the order. */
  named: boolean;
  /** Unselected candidates whose MMR equalled this one's when it was selected: how many the tie-break decided between. */
  tied: number;
  selected: boolean;
}

/** Relations put in words, per loaded metagraph (its metaedge list): every candidate of every hop is textified with its relation's. */
const described = new WeakMap<readonly object[], Map<string, string>>();

/** The relation in words ("Associated with: are associated with"), from the relation description map, so lexical Sim can meet the question's phrasing. */
export function relationDescription(metaedge: string): string {
  const loaded = metaedges();
  let words = described.get(loaded);
  if (!words) described.set(loaded, (words = new Map()));
  let description = words.get(metaedge);
  if (description === undefined) {
    const clause = metaedgeInfo(metaedge)?.sourceClause.replace('{x}', '').trim();
    const category = relationCategory(metaedge)?.replace(/_/g, ' ');
    words.set(metaedge, (description = [category, clause].filter(Boolean).join(': ')));
  }
  return description;
}

/** TEXTIFY(t): the evidence text plus the relation's description. */
export function textify(c: MmrCandidate): string {
  const description = relationDescription(c.triple.metaedge);
  return description ? `${c.text} [${description}]` : c.text;
}

/** The hop's queries and textified candidates made comparable under the run's similarity. */
export function compareCandidates(similarity: Similarity, queries: string[], candidates: MmrCandidate[]): Promise<Comparison> {
  return similarity.compare(candidates.map(textify), queries);
}

/**
 * Sim comes from `comparison`, made by compareCandidates over the same
 * queries and candidates. With `diversity` off (the "w/o MMR" ablation) the
 * redundancy term is left out: the top K by relevance λ·Sim·w_r.
 */
export function weightedMmr(
  queries: string[],
  candidates: MmrCandidate[],
  comparison: Comparison,
  opts: { lambda: number; k: number; domain: RelationDomain | null; diversity?: boolean },
): CandidateRow[] {
  const { lambda, k, domain } = opts;
  const diversity = opts.diversity ?? true;
  const simTexts = candidates.map(textify);
  const matches = queries.map((q) => comparison.relevance(q));
  const readings = queries.map((q) => ` ${normalise(q)} `);
  // Which readings name each end, looked up once per name: the hop's entity is an end of most candidates.
  const namedIn = new Map<string, boolean[]>();
  const readingsNaming = (name: string) => {
    let found = namedIn.get(name);
    if (!found) {
      const key = ` ${normalise(name)} `;
      namedIn.set(name, (found = readings.map((q) => q.includes(key))));
    }
    return found;
  };
  const names = (c: MmrCandidate) => {
    const source = readingsNaming(c.triple.sourceName);
    const target = readingsNaming(c.triple.targetName);
    return source.some((named, q) => named && target[q]);
  };
  const rows: CandidateRow[] = candidates.map((c, i) => {
    const wR = priorWeight(c.triple.metaedge, domain);
    let sim = 0;
    for (const m of matches) if (m[i] > sim) sim = m[i];
    const relevance = lambda * sim * wR;
    return {
      evidenceId: c.id,
      edgeId: c.triple.edgeId,
      source: c.triple.sourceName,
      relation: c.triple.metaedge,
      target: c.triple.targetName,
      category: relationCategory(c.triple.metaedge),
      wR,
      simText: simTexts[i],
      sim,
      relevance,
      redundancy: 0,
      mmr: relevance,
      nearest: null,
      rank: null,
      order: i,
      named: names(c),
      tied: 0,
      selected: false,
    };
  });
  // maxSim[i]: the largest Sim between candidate i and a selected triple so far.
  const maxSim = new Array<number>(rows.length).fill(0);
  // Index loops: a hop selects K of up to several hundred candidates, each round reading every row three times.
  for (let rank = 1; rank <= Math.min(k, rows.length); rank++) {
    let best = -1;
    for (let i = 0; i < rows.length; i++) {
      if (rows[i].selected) continue;
      if (best < 0 || before(rows[i], rows[best])) best = i;
    }
    const chosen = rows[best];
    chosen.selected = true;
    chosen.rank = rank;
    for (const r of rows) if (!r.selected && r.mmr === chosen.mmr) chosen.tied++;
    if (!diversity) continue;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (r.selected) continue;
      const s = comparison.between(simTexts[i], simTexts[best]);
      if (r.nearest === null || s > maxSim[i]) {
        maxSim[i] = s;
        r.nearest = chosen.evidenceId;
      }
      r.redundancy = (1 - lambda) * maxSim[i];
      r.mmr = r.relevance - r.redundancy;
    }
  }
  return rows;
}

/** MMR order with the recorded tie-break (TIE_BREAK). */
function before(a: CandidateRow, b: CandidateRow): boolean {
  if (a.mmr !== b.mmr) return a.mmr > b.mmr;
  if (a.relevance !== b.relevance) return a.relevance > b.relevance;
  if (a.named !== b.named) return a.named;
  return a.order < b.order;
}
