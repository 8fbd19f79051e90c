import type { Comparison, Similarity, SimilarityUse } from '@/lib/llm/similarity';
import type { BioWeaveParams } from './params';
import type { Source } from './plan';
import type { Unit } from './units';

/**
 * CrossVerify (the paper's §5.3, Algorithm 6) with METHODS.md §4's formulas:
 *   s_rel   = λ_sem·cos(q, u) + (1 − λ_sem)·Jaccard(Topic(q), Ent(u)); top W1 (≤ perSource per source)
 *   Supp(u) = { src(v) : v in the pool, v ≠ u, Sim(u, v) ≥ γ }
 *   s_ver   = α_prior·ρ_src(u) + α_sup·min(|Supp(u)|, W_src)/W_src + α_kg·|Ent(u) ∩ V(G_q)| / max(1, |Ent(u)|)
 *   s_cross = β·s_rel + (1 − β)·s_ver; top W2
 * cos and Sim are the paper's SentenceBERT cosine where the endpoint has an
 * embedding model (HOPSCOPE_EMBEDDING_MODEL), else the cosine of lexical term
 * vectors (lib/llm/similarity); the table names which. Every row keeps its
 * inputs, so the table can be recomputed from the trace.
 */

export interface ScoreRow {
  unitId: string;
  source: Source;
  round: number;
  text: string;
  /** Ent(u): normalised entity node ids. */
  entities: string[];
  cos: number;
  jaccard: number;
  sRel: number;
  inPool: boolean;
  /** Why a unit missed the pool: 'per-source cap' or 'below W1'. */
  poolCut: string | null;
  /** Pool units with Sim ≥ γ, and their sources (Supp). */
  supporters: string[] | null;
  supp: Source[] | null;
  rPrior: number | null;
  rSup: number | null;
  /** Ent(u) ∩ V(G_q). */
  entitiesInGraph: string[] | null;
  rKg: number | null;
  sVer: number | null;
  sCross: number | null;
  inTop: boolean;
}

export interface ScoringTable {
  /** Which cos and Sim the table used: embedding:<model>, or lexical and why. */
  similarity: SimilarityUse;
  topicIds: string[];
  weights: Pick<
    BioWeaveParams,
    'lambdaSem' | 'beta' | 'gamma' | 'wSrc' | 'rhoKg' | 'rhoDoc' | 'rhoWeb' | 'alphaPrior' | 'alphaSup' | 'alphaKg' | 'w1' | 'perSource' | 'w2'
  >;
  /** Rows in s_rel order; pool rows carry the verification columns. */
  rows: ScoreRow[];
  /** Unit ids of the top W2, by s_cross. */
  top: string[];
}

/** The question and the units' texts made comparable under the run's similarity. */
export function compareUnits(similarity: Similarity, question: string, units: Unit[]): Promise<Comparison> {
  return similarity.compare(
    units.map((u) => u.text),
    [question],
  );
}

/** `comparison`: compareUnits over the same question and units. */
export function crossVerify(
  question: string,
  units: Unit[],
  comparison: Comparison,
  topicIds: string[],
  graphNodes: Set<string>,
  p: BioWeaveParams,
): ScoringTable {
  const topics = new Set(topicIds);
  const rows: ScoreRow[] = units.map((u) => {
    const entities = [...new Set(u.entities.map((e) => e.nodeId))];
    const cos = comparison.between(question, u.text);
    const jaccard = jaccardOf(topics, new Set(entities));
    return {
      unitId: u.id,
      source: u.source,
      round: u.round,
      text: u.text,
      entities,
      cos,
      jaccard,
      sRel: p.lambdaSem * cos + (1 - p.lambdaSem) * jaccard,
      inPool: false,
      poolCut: null,
      supporters: null,
      supp: null,
      rPrior: null,
      rSup: null,
      entitiesInGraph: null,
      rKg: null,
      sVer: null,
      sCross: null,
      inTop: false,
    };
  });
  // Stable sort: equal s_rel keeps the units' order (KG units arrive best-ranked first).
  rows.sort((a, b) => b.sRel - a.sRel);

  const perSource = new Map<Source, number>();
  const pool: ScoreRow[] = [];
  for (const row of rows) {
    const taken = perSource.get(row.source) ?? 0;
    if (pool.length >= p.w1) row.poolCut = 'below W1';
    else if (taken >= p.perSource) row.poolCut = 'per-source cap';
    else {
      row.inPool = true;
      pool.push(row);
      perSource.set(row.source, taken + 1);
    }
  }

  const prior: Record<Source, number> = { kg: p.rhoKg, doc: p.rhoDoc, web: p.rhoWeb };
  for (const row of pool) {
    row.supporters = pool.filter((o) => o !== row && comparison.between(row.text, o.text) >= p.gamma).map((o) => o.unitId);
    row.supp = [...new Set(row.supporters.map((id) => pool.find((o) => o.unitId === id)!.source))];
    row.rPrior = prior[row.source];
    row.rSup = Math.min(row.supp.length, p.wSrc) / p.wSrc;
    row.entitiesInGraph = row.entities.filter((id) => graphNodes.has(id));
    row.rKg = row.entitiesInGraph.length / Math.max(1, row.entities.length);
    row.sVer = p.alphaPrior * row.rPrior + p.alphaSup * row.rSup + p.alphaKg * row.rKg;
    row.sCross = p.beta * row.sRel + (1 - p.beta) * row.sVer;
  }
  const top = [...pool].sort((a, b) => b.sCross! - a.sCross!).slice(0, p.w2);
  for (const row of top) row.inTop = true;

  const { lambdaSem, beta, gamma, wSrc, rhoKg, rhoDoc, rhoWeb, alphaPrior, alphaSup, alphaKg, w1, perSource: cap, w2 } = p;
  return {
    similarity: comparison.used,
    topicIds,
    weights: { lambdaSem, beta, gamma, wSrc, rhoKg, rhoDoc, rhoWeb, alphaPrior, alphaSup, alphaKg, w1, perSource: cap, w2 },
    rows,
    top: top.map((r) => r.unitId),
  };
}

function jaccardOf(a: Set<string>, b: Set<string>): number {
  const union = new Set([...a, ...b]).size;
  return union ? [...a].filter((x) => b.has(x)).length / union : 0;
}
