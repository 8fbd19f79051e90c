import type { DirectionFilter, KgEdge, KgNode, KgPath, MetapathHop } from './types';
import { graphSnapshot, type GraphSnapshot } from './store/snapshot';
import { compileFilter, matchingEntries, type EdgeFilter } from './query/edge-filter';
import { hopFilters, reversedHopFilter } from './query/hop-filters';
import { parseMetapath } from './query/metapath-syntax';
import { byDegreeDesc } from './query/order';
import { degreeOf, edgeAt, nodeAt, pathAt } from './query/records';

export { parseMetapath } from './query/metapath-syntax';

export type MetapathSpec = string | (string | MetapathHop)[];

export interface MetapathOptions {
  /** Paths returned (default 50). */
  limit?: number;
  /** Only paths that end at this node. */
  targetId?: string;
  /** Incidence entries the walk may scan (default 2M). */
  maxExpansions?: number;
}

/**
 * Concrete simple paths that follow `metapath` from `startId`, through the
 * least-connected nodes first at every hop. With a target, a backward pass first
 * marks which nodes can still reach it in the remaining hops, so the walk never
 * explores dead branches.
 */
export async function instantiateMetapath(startId: string, metapath: MetapathSpec, opts: MetapathOptions = {}): Promise<{ paths: KgPath[]; capped: boolean }> {
  const g = await graphSnapshot();
  const hops = parseMetapath(metapath);
  const start = g.nodeIndex.get(startId);
  const target = opts.targetId === undefined ? undefined : g.nodeIndex.get(opts.targetId);
  if (start === undefined || (opts.targetId !== undefined && target === undefined) || !hops.length) return { paths: [], capped: false };
  const filters = hopFilters(g, hops);
  const canFinish = target === undefined ? null : reachableBackwards(g, hops, target);
  const limit = Math.max(1, opts.limit ?? 50);
  let budget = opts.maxExpansions ?? 2_000_000;

  const paths: KgPath[] = [];
  let capped = false;
  const nodes = [start];
  const edges: number[] = [];
  const onPath = new Set([start]);
  const step = (u: number) => {
    const hop = edges.length;
    if (hop === hops.length) {
      paths.push(pathAt(g, nodes, edges));
      return;
    }
    budget -= degreeOf(g, u);
    if (budget < 0) {
      capped = true;
      return;
    }
    const next = Array.from(matchingEntries(g, u, filters[hop])).filter((i) => {
      const v = g.incNeighbor[i];
      return !onPath.has(v) && (!canFinish || canFinish[hop + 1][v] === 1);
    });
    next.sort((a, b) => degreeOf(g, g.incNeighbor[a]) - degreeOf(g, g.incNeighbor[b]) || a - b);
    for (const i of next) {
      if (paths.length >= limit || budget < 0) {
        capped = true;
        return;
      }
      const v = g.incNeighbor[i];
      nodes.push(v);
      edges.push(g.incEdge[i]);
      onPath.add(v);
      step(v);
      onPath.delete(v);
      nodes.pop();
      edges.pop();
    }
  };
  step(start);
  return { paths, capped };
}

/**
 * The distinct nodes at the end of `metapath` from `startId` (the count question
 * family), best-connected first. Computed layer by layer as sets, so it counts
 * nodes rather than paths and stays cheap through hubs; the start node itself is
 * never an end node.
 */
export async function metapathEndpoints(startId: string, metapath: MetapathSpec, opts: { limit?: number } = {}): Promise<{ total: number; nodes: KgNode[] }> {
  const g = await graphSnapshot();
  const start = g.nodeIndex.get(startId);
  if (start === undefined) return { total: 0, nodes: [] };
  let layer = [start];
  for (const filter of hopFilters(g, parseMetapath(metapath))) layer = nextLayer(g, layer, filter);
  const ends = Int32Array.from(layer.filter((v) => v !== start));
  const ordered = byDegreeDesc(ends, (v) => degreeOf(g, v));
  return { total: ends.length, nodes: Array.from(ordered.subarray(0, Math.max(0, opts.limit ?? 50)), (v) => nodeAt(g, v)) };
}

/** One hop of a chain: any of `metaedges`, from the side `direction` says, to nodes of `kind` (any kind when absent). */
export interface ChainHop {
  metaedges: string[];
  direction: DirectionFilter;
  kind?: string | null;
}

export interface ChainTriple {
  edge: KgEdge;
  source: KgNode;
  target: KgNode;
}

/**
 * The complete set of nodes a chain of hops reaches from `startId` (the
 * answer set of "genes bound by drugs that treat X"), computed layer by layer
 * as sets: no cap, so a count or a membership read from it is exact; the start
 * is never an end. With `keep`, only those ends; with `maxTriples`, also the
 * edges of every walk that reaches a kept end (walked back from the ends),
 * null when there are more than that.
 */
export async function chainReach(
  startId: string,
  hops: ChainHop[],
  opts: { keep?: ReadonlySet<string>; maxTriples?: number } = {},
): Promise<{ ends: KgNode[]; triples: ChainTriple[] | null }> {
  const g = await graphSnapshot();
  const start = g.nodeIndex.get(startId);
  if (start === undefined || !hops.length) return { ends: [], triples: [] };
  const filters = hops.map((h) => compileFilter(g, { metaedges: h.metaedges, direction: h.direction, neighborKinds: h.kind ? [h.kind] : undefined }));
  const layers = [[start]];
  for (const filter of filters) layers.push(nextLayer(g, layers.at(-1)!, filter));
  const ends = layers.at(-1)!.filter((v) => v !== start && (!opts.keep || opts.keep.has(g.nodeIds[v])));
  if (opts.maxTriples === undefined) return { ends: ends.map((v) => nodeAt(g, v)), triples: null };
  let alive = new Set(ends);
  const edges = new Set<number>();
  for (let h = hops.length - 1; h >= 0 && edges.size <= opts.maxTriples; h--) {
    const before = new Set<number>();
    for (const u of layers[h]) {
      for (const i of matchingEntries(g, u, filters[h])) {
        if (!alive.has(g.incNeighbor[i])) continue;
        edges.add(g.incEdge[i]);
        before.add(u);
      }
    }
    alive = before;
  }
  const triples =
    edges.size > opts.maxTriples
      ? null
      : [...edges].map((e) => ({ edge: edgeAt(g, e), source: nodeAt(g, g.edgeSource[e]), target: nodeAt(g, g.edgeTarget[e]) }));
  return { ends: ends.map((v) => nodeAt(g, v)), triples };
}

function nextLayer(g: GraphSnapshot, layer: number[], filter: EdgeFilter): number[] {
  const seen = new Uint8Array(g.nodeCount);
  const next: number[] = [];
  for (const u of layer) {
    for (const i of matchingEntries(g, u, filter)) {
      const v = g.incNeighbor[i];
      if (!seen[v]) {
        seen[v] = 1;
        next.push(v);
      }
    }
  }
  return next;
}

/** canFinish[h][v] = 1 when v, reached after h hops, can still reach `target` along the remaining hops. */
function reachableBackwards(g: GraphSnapshot, hops: MetapathHop[], target: number): Uint8Array[] {
  const canFinish: Uint8Array[] = Array.from({ length: hops.length + 1 }, () => new Uint8Array(g.nodeCount));
  canFinish[hops.length][target] = 1;
  let layer = [target];
  for (let h = hops.length - 1; h >= 0; h--) {
    layer = nextLayer(g, layer, reversedHopFilter(g, hops[h]));
    for (const v of layer) canFinish[h][v] = 1;
  }
  return canFinish;
}
