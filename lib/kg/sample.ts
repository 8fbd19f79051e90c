import type { KgPath, KgTriple } from './types';
import { graphSnapshot } from './store/snapshot';
import { matchingEntries } from './query/edge-filter';
import { hopFilters } from './query/hop-filters';
import { parseMetapath } from './query/metapath-syntax';
import { sampleIndexes, seededRandom } from './query/prng';
import { edgeAt, nodeAt, pathAt } from './query/records';
import type { MetapathSpec } from './metapath';

/**
 * Samplers for the question generators. Deterministic for a seed on a given
 * graph: they draw from the snapshot's lists, which are in edge id order.
 */

/** `n` distinct edges of one metaedge, uniformly. */
export async function sampleEdges(metaedge: string, n: number, seed: string | number): Promise<KgTriple[]> {
  const g = await graphSnapshot();
  const m = g.metaedgeIndex.get(metaedge);
  if (m === undefined) return [];
  const from = g.metaStart[m];
  return sampleIndexes(g.metaStart[m + 1] - from, n, seededRandom(seed)).map((k) => {
    const e = g.metaEdges[from + k];
    return { edge: edgeAt(g, e), source: nodeAt(g, g.edgeSource[e]), target: nodeAt(g, g.edgeTarget[e]) };
  });
}

/**
 * Up to `n` distinct simple paths that follow `metapath`. Each is a seeded random
 * walk: a uniform edge of the first hop's metaedge (its start end chosen by the
 * hop's direction, or at random for 'both'), then a uniform matching edge per
 * hop; a walk that dead-ends or revisits a node is dropped. Not uniform over all
 * paths (walks through low-degree nodes are likelier), which suits generators
 * that want varied, specific questions.
 */
export async function samplePaths(metapath: MetapathSpec, n: number, seed: string | number, opts: { maxAttempts?: number } = {}): Promise<KgPath[]> {
  const g = await graphSnapshot();
  const hops = parseMetapath(metapath);
  const first = hops.length ? g.metaedgeIndex.get(hops[0].metaedge) : undefined;
  if (first === undefined || n <= 0) return [];
  const filters = hopFilters(g, hops);
  const random = seededRandom(seed);
  const firstEdges = g.metaEdges.subarray(g.metaStart[first], g.metaStart[first + 1]);
  const seen = new Set<string>();
  const paths: KgPath[] = [];

  for (let attempt = 0, attempts = opts.maxAttempts ?? 50 * n; attempt < attempts && paths.length < n; attempt++) {
    const e0 = firstEdges[Math.floor(random() * firstEdges.length)];
    const forward = hops[0].direction === 'out' || (hops[0].direction === 'both' && random() < 0.5);
    const nodes = forward ? [g.edgeSource[e0], g.edgeTarget[e0]] : [g.edgeTarget[e0], g.edgeSource[e0]];
    const edges = [e0];
    for (let h = 1; h < hops.length; h++) {
      const u = nodes[nodes.length - 1];
      const options = Array.from(matchingEntries(g, u, filters[h])).filter((i) => !nodes.includes(g.incNeighbor[i]));
      if (!options.length) break;
      const i = options[Math.floor(random() * options.length)];
      nodes.push(g.incNeighbor[i]);
      edges.push(g.incEdge[i]);
    }
    const key = edges.join(',');
    if (edges.length < hops.length || seen.has(key)) continue;
    seen.add(key);
    paths.push(pathAt(g, nodes, edges));
  }
  return paths;
}
