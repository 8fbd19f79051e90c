import type { KgEdge, KgNode } from './types';
import { graphSnapshot } from './store/snapshot';
import { compileFilter, matchingEntries } from './query/edge-filter';
import { byDegreeDesc } from './query/order';
import { degreeOf, edgeAt, nodeAt } from './query/records';

export interface SharedNeighborOptions {
  metaedges?: string[];
  neighborKind?: string;
  limit?: number;
  offset?: number;
}

export interface SharedNeighbor {
  node: KgNode;
  /** One edge per anchor, in the order the anchors were given. */
  edges: KgEdge[];
}

/**
 * The nodes adjacent to every anchor (the shared-neighbour and intersection
 * question families), best-connected first. Anchors themselves are never answers.
 * Unknown anchor ids make the intersection empty.
 */
export async function sharedNeighbors(anchorIds: string[], opts: SharedNeighborOptions = {}): Promise<{ total: number; items: SharedNeighbor[] }> {
  const g = await graphSnapshot();
  const anchors = anchorIds.map((id) => g.nodeIndex.get(id));
  if (!anchors.length || anchors.some((a) => a === undefined)) return { total: 0, items: [] };
  const filter = compileFilter(g, { metaedges: opts.metaedges, neighborKinds: opts.neighborKind ? [opts.neighborKind] : undefined });

  // hits[v] = how many anchors, taken in order, reached v so far; firstEdge[k][v] = anchor k's edge to v.
  const hits = new Uint16Array(g.nodeCount);
  const firstEdge = anchors.map(() => new Int32Array(g.nodeCount));
  anchors.forEach((a, k) => {
    for (const i of matchingEntries(g, a!, filter)) {
      const v = g.incNeighbor[i];
      if (hits[v] !== k) continue;
      hits[v] = k + 1;
      firstEdge[k][v] = g.incEdge[i];
    }
  });
  for (const a of anchors) hits[a!] = 0;

  const shared: number[] = [];
  for (let v = 0; v < g.nodeCount; v++) if (hits[v] === anchors.length) shared.push(v);
  const ordered = byDegreeDesc(Int32Array.from(shared), (v) => degreeOf(g, v));
  const offset = Math.max(0, opts.offset ?? 0);
  const page = ordered.subarray(offset, offset + Math.max(0, opts.limit ?? 50));
  return {
    total: shared.length,
    items: Array.from(page, (v) => ({ node: nodeAt(g, v), edges: firstEdge.map((edges) => edgeAt(g, edges[v])) })),
  };
}
