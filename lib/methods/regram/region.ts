/**
 * The query-aligned region G_q = (V_q, E_q): the selected triples and their
 * end nodes, the relation schema R it allows, and the reasoning mode its size
 * calls for. Pure functions over step outputs.
 */

import { metaedges, sameKind } from '@/lib/llm/offline/metaedges';
import { normalise } from '@/lib/llm/offline/text';
import type { TripleData } from '@/lib/trace/types';
import type { RegramParams } from './params';
import type { AbsenceFact, AllowedRelation, Fact, Mode, RegionEntity } from './templates';

export interface RegionEdge {
  evidenceId: string;
  edgeId: number;
  sourceId: string;
  metaedge: string;
  targetId: string;
}

export interface Region {
  /** V_q; `seed` marks the hop's linked nodes. */
  nodes: (RegionEntity & { seed: boolean })[];
  /** E_q, in selection order. */
  edges: RegionEdge[];
  facts: Fact[];
  /** Pairs of seeds read whole in T_cand, with the relations they have no edge of: the closed world's "no". */
  absences: AbsenceFact[];
  /** R: every relation that joins two kinds present in V_q. */
  relations: AllowedRelation[];
}

export function formRegion(selected: { id: string; text: string; triple: TripleData }[], seedIds: Set<string>, absences: AbsenceFact[] = []): Region {
  const nodes = new Map<string, RegionEntity & { seed: boolean }>();
  for (const { triple: t } of selected) {
    for (const [nodeId, name, kind] of [
      [t.sourceId, t.sourceName, t.sourceKind],
      [t.targetId, t.targetName, t.targetKind],
    ]) {
      if (!nodes.has(nodeId)) nodes.set(nodeId, { nodeId, name, kind, seed: seedIds.has(nodeId) });
    }
  }
  const kinds = [...new Set([...nodes.values()].map((n) => n.kind))];
  const fits = (k: string) => kinds.some((kind) => sameKind(kind, k));
  const relations = metaedges()
    .filter((m) => fits(m.source) && fits(m.target))
    .map((m) => ({
      metaedge: m.abbr,
      verb: m.sourceClause.replace('{x}', '').trim(),
      sourceKind: m.source,
      targetKind: m.target,
    }));
  return {
    nodes: [...nodes.values()],
    edges: selected.map(({ id, triple: t }) => ({ evidenceId: id, edgeId: t.edgeId, sourceId: t.sourceId, metaedge: t.metaedge, targetId: t.targetId })),
    facts: selected.map(({ id, text, triple }) => ({ id, text, triple })),
    absences,
    relations,
  };
}

/** Step 4: the mode by N_facts = |E_q|, with the thresholds as parameters. */
export function chooseMode(nFacts: number, p: Pick<RegramParams, 'strictMinFacts' | 'hybridMinFacts'>): { mode: Mode; why: string } {
  if (nFacts >= p.strictMinFacts) return { mode: 'KG-STRICT', why: `N_facts = ${nFacts} ≥ ${p.strictMinFacts}: answer only from the region's facts` };
  if (nFacts >= p.hybridMinFacts) {
    return {
      mode: 'HYBRID',
      why: `${p.hybridMinFacts} ≤ N_facts = ${nFacts} < ${p.strictMinFacts}: partial evidence, complete it with reviewed hypotheses inside the region`,
    };
  }
  return {
    mode: 'LLM-GUESS',
    why: `N_facts = ${nFacts} < ${p.hybridMinFacts}: ${nFacts ? 'too little' : 'no'} region evidence, answer from general knowledge and say so`,
  };
}

/** The region entity a name (or node id) denotes, if any: the closed world of entities. */
export function entityIn(entities: RegionEntity[], name: string): RegionEntity | null {
  const key = normalise(name);
  return entities.find((e) => e.nodeId === name || normalise(e.name) === key) ?? null;
}
