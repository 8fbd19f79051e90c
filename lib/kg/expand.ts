import type { KgPath } from './types';
import { graphSnapshot } from './store/snapshot';
import { compileFilter, matchingEntries } from './query/edge-filter';
import { degreeOf, pathAt } from './query/records';

export interface ExpandOptions {
  /** Hops from the start nodes, 1..4 (default 3, BioWeave's D_max). */
  maxDepth?: number;
  /** Metaedges the expansion may follow (either direction); default all. */
  allowedMetaedges?: string[];
  /** Kinds a reached node may have; default all. */
  allowedKinds?: string[];
  /** Paths returned in all (default 200, BioWeave's raw cap). */
  cap?: number;
  /** Edges followed out of any one node (default 25), so one hub cannot take the whole cap. */
  fanout?: number;
}

export interface Expansion {
  /** One path per reached node, from the start it was first reached from. */
  paths: KgPath[];
  /** True when the cap or the fanout left reachable nodes out. */
  capped: boolean;
}

/**
 * BioWeave's typed path expansion: a breadth-first search from all start nodes
 * at once over the allowed metaedges and kinds, each node reached once (by its
 * shortest path). Within a depth the frontier nodes take turns, one edge each
 * (least-connected neighbours first), so every start contributes before the cap
 * is spent.
 */
export async function expandTyped(startIds: string[], opts: ExpandOptions = {}): Promise<Expansion> {
  const g = await graphSnapshot();
  const maxDepth = Math.min(4, Math.max(1, opts.maxDepth ?? 3));
  const cap = Math.max(1, opts.cap ?? 200);
  const fanout = Math.max(1, opts.fanout ?? 25);
  const filter = compileFilter(g, { metaedges: opts.allowedMetaedges, neighborKinds: opts.allowedKinds });

  const parentEntry = new Int32Array(g.nodeCount).fill(-1);
  const reached = new Uint8Array(g.nodeCount);
  let frontier = [...new Set(startIds.map((id) => g.nodeIndex.get(id)).filter((v): v is number => v !== undefined))];
  for (const v of frontier) reached[v] = 1;
  const found: number[] = [];
  let capped = false;

  for (let depth = 1; depth <= maxDepth && frontier.length && found.length < cap; depth++) {
    const choices = frontier.map((u) => {
      const entries = Array.from(matchingEntries(g, u, filter)).filter((i) => !reached[g.incNeighbor[i]]);
      entries.sort((a, b) => degreeOf(g, g.incNeighbor[a]) - degreeOf(g, g.incNeighbor[b]) || a - b);
      if (entries.length > fanout) capped = true;
      return entries.slice(0, fanout);
    });
    const next: number[] = [];
    const rounds = Math.max(0, ...choices.map((c) => c.length));
    for (let round = 0; round < rounds; round++) {
      for (const entries of choices) {
        const i = entries[round];
        if (i === undefined || reached[g.incNeighbor[i]]) continue;
        if (found.length >= cap) {
          capped = true;
          break;
        }
        const v = g.incNeighbor[i];
        reached[v] = 1;
        parentEntry[v] = i;
        found.push(v);
        next.push(v);
      }
    }
    frontier = next;
  }

  return { paths: found.map((v) => pathTo(v)), capped };

  function pathTo(end: number): KgPath {
    const nodes = [end];
    const edges: number[] = [];
    for (let v = end; parentEntry[v] >= 0;) {
      const i = parentEntry[v];
      edges.push(g.incEdge[i]);
      v = g.edgeSource[g.incEdge[i]] === v ? g.edgeTarget[g.incEdge[i]] : g.edgeSource[g.incEdge[i]];
      nodes.push(v);
    }
    return pathAt(g, nodes.reverse(), edges.reverse());
  }
}
