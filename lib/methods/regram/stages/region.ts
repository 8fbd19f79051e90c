import { pairCheckOf, tripleOf } from '@/lib/trace/evidence-data';
import type { RelationDomain } from '@/lib/kg/metaedge-categories';
import type { StepHandle, TripleData } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { SimilarityUse } from '@/lib/llm/similarity';
import { compareCandidates, TIE_BREAK, weightedMmr, type CandidateRow } from '../mmr';
import type { RegramParams } from '../params';
import { chooseMode, formRegion, type Region } from '../region';
import type { Mode } from '../templates';
import type { CandidateSet } from './candidates';
import type { HopLinking } from './link';

export interface CandidateTable {
  /** Which Sim the table used: embedding:<model>, or lexical and why. */
  similarity: SimilarityUse;
  /** False in the "w/o MMR" ablation: top K by relevance, no redundancy term. */
  mmr: boolean;
  tieBreak: string;
  lambda: number;
  k: number;
  /** q_i, once per earlier-hop anchor; Sim(q_i, t) is the best of them. */
  queries: string[];
  rows: CandidateRow[];
}

/**
 * Steps 3c–e: weighted MMR over T_cand gives the candidate table; the K
 * selected triples are marked selected in the evidence (the rest stay
 * candidates) and form the region.
 */
export async function selectRegion(
  ctx: MethodContext<RegramParams>,
  parent: StepHandle,
  linking: HopLinking,
  candidates: CandidateSet,
  domain: RelationDomain | null,
): Promise<{ table: CandidateTable; region: Region }> {
  const { lambda, k, mmr } = ctx.params;
  const table = await ctx.trace.step(
    {
      kind: 'regram.mmr',
      label: mmr ? 'Weighted MMR' : 'Top-K by relevance (w/o MMR)',
      input: { queries: linking.simQueries, candidates: candidates.records.length, lambda, k, domain, mmr, tieBreak: TIE_BREAK },
      parent,
    },
    async () => {
      const mmrCandidates = candidates.records.map((r) => ({ id: r.id, text: r.text, triple: tripleOf(r) }));
      const comparison = await compareCandidates(ctx.model.similarity, linking.simQueries, mmrCandidates);
      const rows = weightedMmr(linking.simQueries, mmrCandidates, comparison, { lambda, k, domain, diversity: mmr });
      await ctx.trace.markSelected(rows.filter((r) => r.selected).map((r) => r.evidenceId));
      return { similarity: comparison.used, mmr, tieBreak: TIE_BREAK, lambda, k, queries: linking.simQueries, rows };
    },
  );
  const region = await ctx.trace.step(
    { kind: 'regram.region', label: 'Region', input: { selected: table.rows.filter((r) => r.selected).length }, parent },
    async () => {
      const byId = new Map(candidates.records.map((r) => [r.id, r]));
      const selected = table.rows
        .filter((r) => r.selected)
        .sort((a, b) => a.rank! - b.rank!)
        .map((r) => byId.get(r.evidenceId)!)
        .map((r) => ({ id: r.id, text: r.text, triple: tripleOf(r) }));
      const absences = candidates.absences.map((r) => {
        const { from, to, metaedges } = pairCheckOf(r);
        return { id: r.id, text: r.text, fromId: from.id, toId: to.id, metaedges };
      });
      await ctx.trace.markSelected(absences.map((a) => a.id));
      return formRegion(selected, new Set(linking.nodes.map((n) => n.nodeId)), absences);
    },
  );
  return { table, region };
}

export async function decideMode(ctx: MethodContext<RegramParams>, parent: StepHandle, region: Region): Promise<{ mode: Mode; why: string; nFacts: number }> {
  const { strictMinFacts, hybridMinFacts } = ctx.params;
  const nFacts = region.edges.length;
  return ctx.trace.step({ kind: 'regram.mode', label: 'Reasoning mode', input: { nFacts, strictMinFacts, hybridMinFacts }, parent }, async () => ({
    ...chooseMode(nFacts, ctx.params),
    nFacts,
  }));
}
