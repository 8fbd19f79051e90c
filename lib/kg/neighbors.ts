import type { DirectionFilter, NeighborEdge } from './types';
import { graphSnapshot } from './store/snapshot';
import { compileFilter, matchingEntries } from './query/edge-filter';
import { byDegreeDesc, interleaveGroups } from './query/order';
import { degreeOf, directionAt, edgeAt, nodeAt } from './query/records';

export const NEIGHBOR_ORDERS = ['degree', 'id', 'diverse'] as const;
export type NeighborOrder = (typeof NEIGHBOR_ORDERS)[number];

export interface NeighborOptions {
  metaedges?: string[];
  /** Relative to the anchor: 'out' = the anchor is the stored edge's source. */
  direction?: DirectionFilter;
  neighborKinds?: string[];
  limit?: number;
  offset?: number;
  /**
   * 'degree' (default): best-connected neighbours first; 'id': edge id order, i.e. the source's order;
   * 'diverse': relations take turns (round-robin over metaedges, each best-connected first), so a
   * short page shows every kind of relation the node has.
   */
  order?: NeighborOrder;
}

/**
 * One page of a node's incident edges with the neighbour at the other end, and
 * the total number that match. Served from the in-memory snapshot: the total is
 * the length of the filtered incidence list (no count(*) on a hub), the page a
 * slice of it.
 */
export async function neighbors(nodeId: string, opts: NeighborOptions = {}): Promise<{ total: number; edges: NeighborEdge[] }> {
  const g = await graphSnapshot();
  const v = g.nodeIndex.get(nodeId);
  if (v === undefined) return { total: 0, edges: [] };
  let entries = matchingEntries(g, v, compileFilter(g, opts));
  const order = opts.order ?? 'degree';
  if (order !== 'id') entries = byDegreeDesc(entries, (i) => degreeOf(g, g.incNeighbor[i]));
  if (order === 'diverse') entries = interleaveGroups(entries, (i) => g.incMeta[i]);
  const offset = Math.max(0, opts.offset ?? 0);
  const page = entries.subarray(offset, offset + Math.max(0, opts.limit ?? 50));
  return {
    total: entries.length,
    edges: Array.from(page, (i) => ({ edge: edgeAt(g, g.incEdge[i]), neighbor: nodeAt(g, g.incNeighbor[i]), direction: directionAt(g, g.incEdge[i], v) })),
  };
}

/** How many edges match, and how many distinct nodes they reach (a pair can be joined by several metaedges). */
export async function countNeighbors(
  nodeId: string,
  opts: Omit<NeighborOptions, 'limit' | 'offset' | 'order'> = {},
): Promise<{ edges: number; nodes: number }> {
  const g = await graphSnapshot();
  const v = g.nodeIndex.get(nodeId);
  if (v === undefined) return { edges: 0, nodes: 0 };
  const entries = matchingEntries(g, v, compileFilter(g, opts));
  return { edges: entries.length, nodes: new Set(Array.from(entries, (i) => g.incNeighbor[i])).size };
}
