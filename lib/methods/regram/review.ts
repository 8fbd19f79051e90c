/**
 * The Reviewer's programmatic half: a hypothesised triple read against the
 * region's closed world (entities ∈ V_q, relation ∈ R, kinds that fit the
 * relation) and against the region's own facts. Pure; whether the KG holds
 * the triple is asked of the kg channel by the review stage.
 */

import { metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import { normalise } from '@/lib/llm/offline/text';
import { entityIn, type Region } from './region';
import type { FactTriple, ProgrammaticCheck, ProposedTriple, RegionEntity } from './templates';

export const REVIEWER_SUBSTITUTE =
  "substitute for the paper's LoRA reviewer (a LoRA-tuned Llama-3.1-8B binary classifier, not available here): " +
  'a judge role call plus a programmatic check (head and tail ∈ V_q, relation ∈ R with kinds that fit it, whether the KG holds the triple)';

/** A proposed triple resolved to region entities and a metaedge, oriented as the metaedge is stored. */
export interface ResolvedTriple {
  head: RegionEntity | null;
  tail: RegionEntity | null;
  metaedge: string | null;
  /** Source and target in the metaedge's direction (head and tail may be given the other way round). */
  source: RegionEntity | null;
  target: RegionEntity | null;
}

function relationNamed(relation: string, allowed: Region['relations']) {
  const code = relation.trim().toLowerCase();
  const words = normalise(relation);
  return allowed.filter((r) => r.metaedge.toLowerCase() === code || normalise(r.verb) === words || normalise(r.metaedge) === words);
}

export function resolveTriple(t: ProposedTriple, region: Region): { resolved: ResolvedTriple; check: Omit<ProgrammaticCheck, 'inKg'> } {
  const head = entityIn(region.nodes, t.head);
  const tail = entityIn(region.nodes, t.tail);
  const named = relationNamed(t.relation, region.relations);
  let resolved: ResolvedTriple = { head, tail, metaedge: named[0]?.metaedge ?? null, source: null, target: null };
  let kindsFit = false;
  for (const r of named) {
    if (!head || !tail) break;
    const forward = sameKind(r.sourceKind, head.kind) && sameKind(r.targetKind, tail.kind);
    // An undirected relation may be written either way round; Gr>G may not.
    const backward = !metaedgeInfo(r.metaedge)?.directed && sameKind(r.sourceKind, tail.kind) && sameKind(r.targetKind, head.kind);
    if (forward || backward) {
      kindsFit = true;
      resolved = { head, tail, metaedge: r.metaedge, source: forward ? head : tail, target: forward ? tail : head };
      break;
    }
  }
  const inRegion = !!resolved.source && region.facts.some((f) => sameEdge(f.triple, resolved));
  return { resolved, check: { headInRegion: !!head, tailInRegion: !!tail, relationAllowed: named.length > 0, kindsFit, inRegion } };
}

/**
 * The triple as the metaedge runs, however the proposer wrote it: "(CASKIN1, DuG, type 2 diabetes mellitus)" is shown
 * to the judge as "(type 2 diabetes mellitus, DuG, CASKIN1)", the disease upregulating the gene.
 */
export function orientedTriple(t: ProposedTriple, r: ResolvedTriple): ProposedTriple {
  return r.source && r.source === r.tail && r.target === r.head && r.head !== r.tail ? { head: t.tail, relation: t.relation, tail: t.head } : t;
}

function sameEdge(f: FactTriple, r: ResolvedTriple): boolean {
  if (f.metaedge !== r.metaedge) return false;
  const ends = [f.sourceId, f.targetId];
  return (ends[0] === r.source!.nodeId && ends[1] === r.target!.nodeId) || (ends[1] === r.source!.nodeId && ends[0] === r.target!.nodeId);
}

/** Whether the triple stays inside the region's closed world; a hypothesis that does not scores 0 whatever the judge says. */
export function withinSchema(check: Omit<ProgrammaticCheck, 'inKg'>): boolean {
  return check.headInRegion && check.tailInRegion && check.relationAllowed && check.kindsFit;
}
