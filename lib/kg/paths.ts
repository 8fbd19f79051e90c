import type { KgPath } from './types';
import { graphSnapshot, type GraphSnapshot } from './store/snapshot';
import { compileFilter, passes, type EdgeFilter } from './query/edge-filter';
import { DistanceBalls } from './query/distance-balls';
import { degreeOf, pathAt } from './query/records';

export const MAX_PATH_DEPTH = 4;

export interface PathOptions {
  /** Longest path in hops, 1..4 (default 3). */
  maxDepth?: number;
  /** Metaedges a path may use (walked in either direction); default all. */
  metaedges?: string[];
  /** Paths returned (default 50). */
  limit?: number;
  /** Incidence entries the search may scan before it stops expanding (default 3M, tens of ms). */
  maxExpansions?: number;
}

export interface PathSearch {
  paths: KgPath[];
  /** Hop count of the shortest path within maxDepth, null when none. */
  shortest: number | null;
  /** True when more paths of length ≤ maxDepth exist than `limit` (the shortest and most specific were kept). */
  truncated: boolean;
  /** True when the expansion budget stopped the search early: some paths (through hubs) may be missing. */
  capped: boolean;
  /** Incidence entries scanned. */
  expansions: number;
}

/**
 * Simple paths between two nodes, shortest first and, within a length, through
 * the least-connected intermediate nodes first (hubs explain little, the same
 * reason Hetionet's degree-weighted path counts damp them).
 *
 * Bidirectional BFS gives distance bounds; a depth-first enumeration then only
 * follows an edge when the remaining hops can still reach the target, so it
 * never wanders into the part of the graph that cannot lead there.
 */
export async function searchPaths(sourceId: string, targetId: string, opts: PathOptions = {}): Promise<PathSearch> {
  const g = await graphSnapshot();
  const source = g.nodeIndex.get(sourceId);
  const target = g.nodeIndex.get(targetId);
  const none: PathSearch = { paths: [], shortest: null, truncated: false, capped: false, expansions: 0 };
  if (source === undefined || target === undefined || source === target) return none;
  const maxDepth = Math.min(MAX_PATH_DEPTH, Math.max(1, Math.floor(opts.maxDepth ?? 3)));
  const limit = Math.max(1, opts.limit ?? 50);
  const budget = opts.maxExpansions ?? 3_000_000;
  const filter = compileFilter(g, { metaedges: opts.metaedges });
  if (maxDepth === 1) {
    const direct = directEdges(g, source, target, filter, limit, budget);
    if (direct) return direct;
  }

  const balls = new DistanceBalls(g, source, target, filter, budget);
  const shortest = balls.shortest(maxDepth);
  if (shortest === null) return { ...none, capped: balls.capped, expansions: balls.visits };
  const walker = new PathWalker(g, filter, balls, target, budget);
  const paths: KgPath[] = [];
  let truncated = false;
  for (let length = shortest; length <= maxDepth && !truncated; length++) {
    // The balls only need to reach this length: when short paths fill the limit, the costly outer levels are never expanded.
    balls.growTo(length);
    // Gather more than needed so the ranking below has a choice, bounded so hub-rich lengths stay cheap.
    const found = walker.walk(source, length, Math.max(4 * limit, 200));
    found.paths.sort((a, b) => a.cost - b.cost);
    truncated = found.capped || paths.length + found.paths.length > limit;
    for (const p of found.paths.slice(0, limit - paths.length)) paths.push(pathAt(g, p.nodes, p.edges));
  }
  return { paths, shortest, truncated, capped: balls.capped || walker.exhaustedBudget, expansions: balls.visits + walker.visits };
}

/**
 * What the search below finds with maxDepth 1 (the pair's own edges, in edge id order), read from the less connected
 * end's incidence alone: a pair read (ReGraM's and kg-rag's, many a run) allocated two distance arrays over the whole
 * graph. Null when that end's degree is past the budget, where the search's own rule decides.
 */
function directEdges(g: GraphSnapshot, source: number, target: number, filter: EdgeFilter, limit: number, budget: number): PathSearch | null {
  // The side the distance balls would expand: the source unless the target has fewer incident edges.
  const [near, far] = degreeOf(g, source) <= degreeOf(g, target) ? [source, target] : [target, source];
  const expansions = degreeOf(g, near);
  if (expansions > budget) return null;
  const edges: number[] = [];
  for (let i = g.incStart[near]; i < g.incStart[near + 1]; i++) if (g.incNeighbor[i] === far && passes(g, filter, near, i)) edges.push(g.incEdge[i]);
  return {
    paths: edges.slice(0, limit).map((e) => pathAt(g, [source, target], [e])),
    shortest: edges.length ? 1 : null,
    truncated: edges.length > limit,
    capped: false,
    expansions,
  };
}

/** The paths of `searchPaths` alone. */
export async function findPaths(sourceId: string, targetId: string, opts: PathOptions = {}): Promise<KgPath[]> {
  return (await searchPaths(sourceId, targetId, opts)).paths;
}

interface WalkedPath {
  nodes: number[];
  edges: number[];
  /** Sum of ln(degree) over intermediate nodes: lower = more specific. */
  cost: number;
}

/** Depth-first enumeration of source→target paths of one exact length, pruned by the distance balls. */
class PathWalker {
  visits = 0;
  exhaustedBudget = false;
  private readonly onPath: Uint8Array;
  /**
   * The target's edges by neighbour: the last hop is a lookup here instead of a
   * scan of the second-to-last node, which is often a hub (a gene with 9k edges).
   */
  private readonly lastHop = new Map<number, number[]>();

  constructor(
    private readonly g: GraphSnapshot,
    private readonly filter: EdgeFilter,
    private readonly balls: DistanceBalls,
    private readonly target: number,
    private readonly budget: number,
  ) {
    this.onPath = new Uint8Array(g.nodeCount);
    for (let i = g.incStart[target]; i < g.incStart[target + 1]; i++) {
      if (!passes(g, filter, target, i)) continue;
      const v = g.incNeighbor[i];
      this.lastHop.set(v, [...(this.lastHop.get(v) ?? []), g.incEdge[i]]);
    }
  }

  /** A lower bound on the hops from v to the target. */
  private toTarget(v: number): number {
    const d = this.balls.toTarget(v);
    if (d >= 0) return d;
    return this.balls.backwardExhausted ? Infinity : this.balls.backwardRadius + 1;
  }

  walk(source: number, length: number, cap: number): { paths: WalkedPath[]; capped: boolean } {
    const { g, target } = this;
    const paths: WalkedPath[] = [];
    const nodes = [source];
    const edges: number[] = [];
    let capped = false;
    const step = (u: number, cost: number): void => {
      // Hops still to go after the next node.
      const hopsLeft = length - nodes.length;
      if (hopsLeft === 0) {
        for (const e of this.lastHop.get(u) ?? []) {
          if (paths.length >= cap) {
            capped = true;
            return;
          }
          paths.push({ nodes: [...nodes, target], edges: [...edges, e], cost });
        }
        return;
      }
      if (this.balls.visits + this.visits + degreeOf(g, u) > this.budget) {
        this.exhaustedBudget = true;
        return;
      }
      this.visits += degreeOf(g, u);
      const next: number[] = [];
      for (let i = g.incStart[u]; i < g.incStart[u + 1]; i++) {
        const v = g.incNeighbor[i];
        if (this.onPath[v] || v === target || this.toTarget(v) > hopsLeft) continue;
        if (passes(g, this.filter, u, i)) next.push(i);
      }
      next.sort((a, b) => degreeOf(g, g.incNeighbor[a]) - degreeOf(g, g.incNeighbor[b]) || a - b);
      for (const i of next) {
        if (paths.length >= cap) {
          capped = true;
          return;
        }
        const v = g.incNeighbor[i];
        this.onPath[v] = 1;
        nodes.push(v);
        edges.push(g.incEdge[i]);
        step(v, cost + Math.log(degreeOf(g, v)));
        nodes.pop();
        edges.pop();
        this.onPath[v] = 0;
      }
    };
    this.onPath[source] = 1;
    step(source, 0);
    this.onPath[source] = 0;
    return { paths, capped };
  }
}
