import { findPaths, graphSnapshot, linkEntities, linkMention, neighbors, sharedNeighbors, type NeighborOptions } from '../../lib/kg';
import type { BenchModule, BenchRow } from './types';
import { kgWorkload } from './kg-workload';
import { timeAll } from './timing';

/** Latency of the KG library's hot calls over the fixed workload. */
export const kgQueries: BenchModule = {
  name: 'kg queries',
  help: 'link, neighbours, shared neighbours and paths over a fixed seeded workload (seconds)',
  async run(ctx) {
    const started = performance.now();
    const g = await graphSnapshot();
    ctx.log(`graph snapshot: ${g.nodeCount} nodes, ${g.edgeCount} edges in ${Math.round(performance.now() - started)} ms`);
    const w = await kgWorkload();

    const linkTasks = [
      ...w.mentions.map((m) => () => linkMention(m)),
      ...w.questions.map((q) => () => linkEntities(q)),
      ...w.questions.map((q) => () => linkEntities(q, { aliases: false, fuzzy: false })),
    ];
    const neighborTasks = w.neighborNodes.flatMap(({ id, topMetaedge }) =>
      (
        [
          {},
          { order: 'id' },
          { metaedges: [topMetaedge] },
          { direction: 'in', offset: 50 },
          { metaedges: [topMetaedge], order: 'degree', limit: 20 },
        ] as NeighborOptions[]
      ).map((opts) => () => neighbors(id, opts)),
    );
    const sharedTasks = w.sharedAnchors.map(
      ({ anchors, metaedges, neighborKind }) =>
        () =>
          sharedNeighbors(anchors, { metaedges, neighborKind, limit: 50 }),
    );
    const pathTasks = w.pathPairs.map(
      ({ source, target }) =>
        () =>
          findPaths(source, target, { maxDepth: 4, limit: 50 }),
    );

    const rows: BenchRow[] = [
      {
        type: 'timing',
        label: 'link (mentions + questions)',
        key: 'link',
        samplesMs: await timeAll(linkTasks, (t) => t()),
        note: `${linkTasks.length} calls × 3`,
      },
      {
        type: 'timing',
        label: 'neighbours (incl. hubs)',
        key: 'neighbors',
        samplesMs: await timeAll(neighborTasks, (t) => t()),
        note: `${neighborTasks.length} calls × 3`,
      },
      {
        type: 'timing',
        label: 'shared neighbours',
        key: 'shared_neighbors',
        samplesMs: await timeAll(sharedTasks, (t) => t()),
        note: `${sharedTasks.length} calls × 3`,
      },
      {
        type: 'timing',
        label: 'paths (depth ≤ 4, ≤ 50 paths)',
        key: 'paths',
        samplesMs: await timeAll(pathTasks, (t) => t()),
        note: `${pathTasks.length} pairs × 3`,
      },
      { type: 'value', label: 'graph snapshot load', value: Math.round(g.loadMs), unit: 'ms', note: 'once per process' },
    ];
    return rows;
  },
};
