import { EvidenceGraph, startAt, type EvidenceTriple } from '@/lib/llm/offline/evidence';
import type { QuestionFrame } from './frame';
import { WHOLE_QUESTION } from './operator';
import { followed, kitHop, linkedById, locatedHops, findHop, type Plan, type Source } from './plan';
import type { Unit, UnitEntity } from './units';

/**
 * One round's retrieval plan (InitPlan): which hops it retrieves for, from
 * which sources, starting where. The first round covers the whole plan; a
 * repair round only the missing hop, from the frontier the earlier hops reached.
 */
export interface RoundPlan {
  round: number;
  /** Hop ids, or WHOLE_QUESTION when the question has no typed hop. */
  targetHops: string[];
  sources: Source[];
  /** Where KG retrieval for each target hop starts. */
  frontier: Record<string, UnitEntity[]>;
  /** H_miss: hops the path ranking rewards covering. */
  missingHops: string[];
  /** Text queries the repair decision asked for (none: built from the hops). */
  queries: string[];
  reason: string;
}

/** What has been tried for a hop, so a repair tries something new. */
export interface Attempt {
  /** The relation reading the KG was last searched with. */
  kg: 'none' | 'preferred' | 'widened';
  /** Rounds that searched the KG for the hop. */
  kgRounds: number;
  doc: number;
  web: number;
}

/** Topic entities as units name them: the plan's, else every linked question entity. */
export function topicEntities(plan: Plan, frame: QuestionFrame): UnitEntity[] {
  const linked = linkedById(frame);
  const ids = plan.topicEntityIds.length ? plan.topicEntityIds : [...new Set(frame.entities.map((e) => e.nodeId))];
  const anchors = [...plan.constraints.map((c) => c.anchorId), ...plan.claims.flatMap((c) => [c.subjectId, c.objectId])];
  return [...new Set([...ids, ...anchors])].flatMap((id) => {
    const e = linked.get(id);
    return e ? [{ nodeId: e.nodeId, name: e.name, kind: e.kind }] : [];
  });
}

export function firstRound(plan: Plan, frame: QuestionFrame): RoundPlan {
  const topics = new Map(topicEntities(plan, frame).map((t) => [t.nodeId, t]));
  const hops = locatedHops(plan);
  const frontier: Record<string, UnitEntity[]> = {};
  for (const h of hops) if (h.index === 0 && topics.has(h.anchorId)) frontier[h.hop.id] = [topics.get(h.anchorId)!];
  return {
    round: 1,
    targetHops: hops.length ? hops.map((h) => h.hop.id) : [WHOLE_QUESTION],
    sources: plan.sourcePlan,
    frontier,
    missingHops: plan.missingHops,
    queries: [],
    reason: 'the initial source plan, over every hop',
  };
}

/** Each evidence memory's graph, built once: a repair decision finds the frontier of every candidate hop in the same memory (a round's memory is a new array, never changed). */
const memoryGraphs = new WeakMap<Unit[], EvidenceGraph>();

/** The KG paths retrieved so far, as the kit's evidence. */
function memoryGraph(memory: Unit[]): EvidenceGraph {
  let graph = memoryGraphs.get(memory);
  if (!graph) {
    const triples: EvidenceTriple[] = memory.flatMap((u) => u.paths.flatMap((p) => p.triples.map((t) => ({ ...t, id: p.id }))));
    memoryGraphs.set(memory, (graph = new EvidenceGraph({ triples })));
  }
  return graph;
}

/**
 * Where a hop starts: its anchor for a first hop, else the nodes the earlier
 * hops of its chain reach through every path retrieved so far.
 */
export function frontierOf(plan: Plan, frame: QuestionFrame, memory: Unit[], hopId: string): UnitEntity[] {
  const located = findHop(plan, hopId);
  if (!located) return topicEntities(plan, frame);
  const anchor = topicEntities(plan, frame).find((t) => t.nodeId === located.anchorId);
  if (!anchor) return [];
  if (located.index === 0) return [anchor];
  const constraint = plan.constraints.find((c) => c.id === located.owner)!;
  const graph = memoryGraph(memory);
  let reach = startAt(anchor.nodeId);
  for (const hop of constraint.hops.slice(0, located.index)) {
    const kit = kitHop(hop);
    reach = graph.step(
      reach,
      kit,
      kit.edges.filter((e) => followed(hop).includes(e.metaedge)),
    );
  }
  return [...reach.keys()].flatMap((id) => {
    const n = graph.node(id);
    return n ? [{ nodeId: id, name: n.name, kind: n.kind }] : [];
  });
}
