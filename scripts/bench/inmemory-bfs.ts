import { graphSnapshot, type GraphSnapshot } from '../../lib/kg/store/snapshot';
import type { BenchModule } from './types';
import { kgWorkload } from './kg-workload';
import { percentile, round, timeAll } from './timing';

/**
 * The lower bound for the path queries: a bare bidirectional breadth-first search
 * over the same edges in typed arrays (CSR), stopping at the first meeting of
 * the two frontiers, i.e. one shortest path and nothing else: no filters,
 * enumeration, ranking or records. Reports paths_p95 / this p95.
 */
export const inMemoryBfs: BenchModule = {
  name: 'in-memory bfs',
  help: 'the in-memory BFS lower bound for the path queries (seconds)',
  async run(ctx) {
    const g = await graphSnapshot();
    const w = await kgWorkload();
    const pairs = w.pathPairs.map(({ source, target }) => [g.nodeIndex.get(source)!, g.nodeIndex.get(target)!]);
    const samplesMs = await timeAll(pairs, ([s, t]) => shortestDistance(g, s, t, 4));
    const pathsP95 = ctx.metrics.paths_p95_ms;
    const ratio = pathsP95 != null ? round(pathsP95 / percentile(samplesMs, 95)) : null;
    return [
      { type: 'timing', label: 'in-memory bidirectional BFS (lower bound)', key: 'inmemory_bfs', samplesMs, note: `${pairs.length} pairs × 3` },
      { type: 'value', label: 'paths p95 / in-memory BFS p95', key: 'paths_vs_inmemory_ratio', value: ratio, unit: '×' },
    ];
  },
};

function shortestDistance(g: GraphSnapshot, source: number, target: number, maxDepth: number): number | null {
  if (source === target) return 0;
  const side = [new Int8Array(g.nodeCount), new Int8Array(g.nodeCount)];
  const depth = [0, 0];
  const frontiers = [[source], [target]];
  side[0][source] = 1;
  side[1][target] = 1;
  while (depth[0] + depth[1] < maxDepth && frontiers[0].length && frontiers[1].length) {
    const k = frontiers[0].length <= frontiers[1].length ? 0 : 1;
    const mine = side[k];
    const theirs = side[1 - k];
    const next: number[] = [];
    depth[k]++;
    for (const u of frontiers[k]) {
      for (let i = g.incStart[u]; i < g.incStart[u + 1]; i++) {
        const v = g.incNeighbor[i];
        if (theirs[v]) return depth[0] + depth[1];
        if (!mine[v]) {
          mine[v] = 1;
          next.push(v);
        }
      }
    }
    frontiers[k] = next;
  }
  return null;
}
