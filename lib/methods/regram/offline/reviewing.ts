/**
 * Offline HYBRID roles. Without a language model there is no plausibility to
 * draw on, so hypotheses are closed-world completions: the relation the hop
 * question names, between its anchor and region entities of the answer's kind
 * that no region fact joins. The judge scores by what the programmatic check
 * found in the KG; revision tries the next relation the schema allows between
 * the same two entities.
 */

import { metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import { entityIn } from '../region';
import type { AllowedRelation, Fact, HopQuestion, ProgrammaticCheck, ProposedTriple, RegionEntity } from '../templates';
import { readHop } from './reading';

const key = (a: string, relation: string, b: string) => [relation, ...[a, b].sort()].join('|');

export function hypothesizeCompletions(input: { hop: HopQuestion; facts: Fact[]; entities: RegionEntity[]; relations: AllowedRelation[]; max: number }): {
  triples: ProposedTriple[];
} {
  const stated = new Set(input.facts.map((f) => key(f.triple.sourceId, f.triple.metaedge, f.triple.targetId)));
  const allowed = new Set(input.relations.map((r) => r.metaedge));
  const triples = new Map<string, ProposedTriple>();
  for (const u of readHop(input.hop).readings) {
    for (const anchor of u.anchors) {
      const hop = anchor.chain[0];
      const anchorNode = input.entities.find((e) => e.nodeId === anchor.entity.nodeId);
      if (!hop || anchor.negated || !anchorNode) continue;
      const edge = hop.edges[0];
      const m = metaedgeInfo(edge.metaedge);
      if (!m || !allowed.has(m.abbr)) continue;
      for (const other of input.entities) {
        if (other.nodeId === anchorNode.nodeId || !sameKind(other.kind, hop.to)) continue;
        const k = key(anchorNode.nodeId, m.abbr, other.nodeId);
        if (stated.has(k)) continue;
        const anchorIsSource = edge.fromEnd === 'source' || (edge.fromEnd === 'any' && sameKind(m.source, anchorNode.kind));
        const [head, tail] = anchorIsSource ? [anchorNode, other] : [other, anchorNode];
        triples.set(k, { head: head.name, relation: m.abbr, tail: tail.name });
      }
    }
  }
  return { triples: [...triples.values()].slice(0, input.max) };
}

export function judgeByCheck(input: { check: ProgrammaticCheck }): { score: number; reason: string } {
  const { check } = input;
  if (check.inRegion) return { score: 1, reason: 'a region fact states this triple' };
  if (check.inKg === true) return { score: 0.9, reason: 'the programmatic check found this edge in the KG' };
  if (check.inKg === false) return { score: 0.1, reason: 'the KG holds no such edge, and the offline engine has no knowledge beyond the KG' };
  return { score: 0.3, reason: 'the KG could not be checked, and the offline engine has no knowledge of its own to vouch for it' };
}

export function reviseRelation(input: { triple: ProposedTriple; relations: AllowedRelation[]; entities: RegionEntity[]; tried: ProposedTriple[] }): {
  revised: ProposedTriple | null;
  note: string;
} {
  const head = entityIn(input.entities, input.triple.head);
  const tail = entityIn(input.entities, input.triple.tail);
  if (!head || !tail) return { revised: null, note: 'an entity lies outside the region; the offline engine does not substitute entities' };
  const triedRelations = new Set(input.tried.map((t) => t.relation));
  for (const r of input.relations) {
    if (triedRelations.has(r.metaedge)) continue;
    const forward = sameKind(r.sourceKind, head.kind) && sameKind(r.targetKind, tail.kind);
    const backward = !metaedgeInfo(r.metaedge)?.directed && sameKind(r.sourceKind, tail.kind) && sameKind(r.targetKind, head.kind);
    if (!forward && !backward) continue;
    const [h, t] = forward ? [head, tail] : [tail, head];
    return {
      revised: { head: h.name, relation: r.metaedge, tail: t.name },
      note: `the next relation the schema allows between a ${head.kind} and a ${tail.kind}: ${r.metaedge}`,
    };
  }
  return { revised: null, note: `no untried relation joins a ${head.kind} and a ${tail.kind}` };
}
