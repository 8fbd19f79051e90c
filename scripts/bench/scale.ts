import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { switchToScratchDatabase } from '../../lib/db/scratch';
import { findPaths, graphSnapshot, invalidateGraphSnapshot, linkEntities, neighbors, sharedNeighbors, type NeighborOptions } from '../../lib/kg';
import { importPrimeKg } from '../../lib/kg/import';
import { seededEdges, seededNodes, topDegreeNodeIds, topMetaedges } from '../../lib/kg/store/sampling';
import { PRIMEKG_ROWS, writeSyntheticPrimeKg } from '../../lib/kg/import/primekg-synth';
import { listMethods } from '../../lib/methods/registry';
import { executeRun } from '../../lib/runs/executor';
import { createRun } from '../../lib/runs/service';
import { collectGarbage, percentile, round, timeAll } from './timing';
import type { BenchModule, BenchRow } from './types';

const SEED = 13;
const WORKLOAD_SEED = 'hopscope-scale-v1';
const QUESTIONS_PER_METHOD = 3;

/**
 * `npm run bench -- --scale [--rows N]`: a synthetic PrimeKG-shaped graph of
 * about N rows (default: PrimeKG's 8.1M) imported into a scratch database of
 * the same server, then the snapshot load, the KG queries over a workload
 * drawn from that graph (its hubs included) and offline runs of every method
 * on questions built from its edges. The database is dropped afterwards; the
 * generated file stays in the temp folder for the next run of the same size.
 */
export const scaleBench: BenchModule = {
  name: 'scale (synthetic PrimeKG)',
  flag: 'scale',
  help: 'a synthetic PrimeKG-shaped graph in a scratch database: import, snapshot, KG queries, runs (several minutes at full size: 8.1M rows)',
  options: [`--rows N      rows of the synthetic graph (default ${PRIMEKG_ROWS}, PrimeKG's)`],
  needsKg: false,
  async run({ log, args }) {
    const rows = args.number('rows', PRIMEKG_ROWS);
    const file = path.join(os.tmpdir(), `hopscope-primekg-synth-${rows}-${SEED}.csv`);
    if (!fs.existsSync(file)) {
      log(`generating ${rows} rows into ${file}…`);
      await writeSyntheticPrimeKg(`${file}.partial`, { rows, seed: SEED });
      fs.renameSync(`${file}.partial`, file);
    }
    const scratch = await switchToScratchDatabase('hopscope_scale');
    try {
      log('importing…');
      // The whole import, from the call to the commit: read, fold, COPY, index builds, analyze, the import record.
      const imported = await timed(() => importPrimeKg(file));
      const summary = imported.value;
      const edgesPerSecond = Math.round(summary.edgeCount / imported.s);
      log(`${summary.edgeCount} edges, ${summary.nodeCount} nodes in ${imported.s.toFixed(1)} s: ${edgesPerSecond} edges/s`);

      // First from PostgreSQL (as after an import), then as a restarted process finds it: from the saved file.
      // Resident size: what the snapshot keeps (V8 heap and typed arrays, garbage collected on both sides). The
      // process's RSS is no measure here: it still holds pages the import freed and gives them back mid-load.
      const retained = () => {
        collectGarbage();
        const m = process.memoryUsage();
        return m.heapUsed + m.arrayBuffers;
      };
      const before = retained();
      const cold = await timed(() => graphSnapshot());
      const snapshotMb = (retained() - before) / 2 ** 20;
      invalidateGraphSnapshot();
      const saved = await timed(() => graphSnapshot());
      const g = saved.value;
      log(
        `snapshot: ${g.nodeCount} nodes, ${g.edgeCount} edges in ${cold.s.toFixed(1)} s from PostgreSQL, ${saved.s.toFixed(1)} s from the saved file; +${Math.round(snapshotMb)} MB resident`,
      );

      const w = await workload();
      const neighborTasks = w.nodes.flatMap(({ id, topMetaedge }) =>
        (
          [{}, { metaedges: [topMetaedge] }, { direction: 'in', offset: 50 }, { metaedges: [topMetaedge], order: 'degree', limit: 20 }] as NeighborOptions[]
        ).map((o) => () => neighbors(id, o)),
      );
      const rowsOut: BenchRow[] = [
        {
          type: 'value',
          label: 'scale: import',
          key: 'scale_import_edges_per_s',
          value: edgesPerSecond,
          unit: 'edges/s',
          note: `${summary.edgeCount} edges (${rows} rows), ${summary.nodeCount} nodes in ${imported.s.toFixed(1)} s from the call to the commit (file read to index builds; the snapshot below)`,
        },
        {
          type: 'value',
          label: 'scale: snapshot load',
          key: 'scale_snapshot_load_s',
          value: round(cold.s),
          unit: 's',
          note: 'from PostgreSQL, first load after the import',
        },
        {
          type: 'value',
          label: 'scale: snapshot load (saved)',
          key: 'scale_snapshot_saved_load_s',
          value: round(saved.s),
          unit: 's',
          note: 'from .data/snapshots, as a restarted process loads it',
        },
        {
          type: 'value',
          label: 'scale: snapshot resident',
          key: 'scale_snapshot_mb',
          value: Math.round(snapshotMb),
          unit: 'MB',
          note: 'heap and typed arrays the snapshot keeps (garbage collected before and after)',
        },
        {
          type: 'timing',
          label: 'scale: link',
          key: 'scale_link',
          samplesMs: await timeAll(w.mentions, (m) => linkEntities(m)),
          note: `${w.mentions.length} node names and questions × 3`,
        },
        {
          type: 'timing',
          label: 'scale: neighbours (hubs incl.)',
          key: 'scale_neighbors',
          samplesMs: await timeAll(neighborTasks, (t) => t()),
          note: `${neighborTasks.length} calls × 3`,
        },
        {
          type: 'timing',
          label: 'scale: shared neighbours',
          key: 'scale_shared',
          samplesMs: await timeAll(w.pairs, ([a, b]) => sharedNeighbors([a, b], { limit: 50 })),
          note: `${w.pairs.length} pairs × 3`,
        },
        {
          type: 'timing',
          label: 'scale: paths (depth ≤ 3)',
          key: 'scale_paths',
          samplesMs: await timeAll(w.pairs, ([a, b]) => findPaths(a, b, { maxDepth: 3, limit: 50 })),
          note: `${w.pairs.length} pairs × 3`,
        },
      ];
      for (const method of listMethods()) {
        const samples: number[] = [];
        let failed = 0;
        for (const question of w.questions.slice(0, QUESTIONS_PER_METHOD)) {
          const { id } = await createRun({ method: method.id, question, backend: 'offline' }, { enqueue: false });
          const t = performance.now();
          if ((await executeRun(id)) !== 'succeeded') failed++;
          samples.push(performance.now() - t);
        }
        rowsOut.push({
          type: 'value',
          label: `scale: run offline p50: ${method.id}`,
          key: `scale_run_offline_p50_ms_${method.id.replace('-', '_')}`,
          value: round(percentile(samples, 50)),
          unit: 'ms',
          note: failed ? `${failed} of ${samples.length} runs failed` : `${samples.length} runs`,
        });
      }
      return rowsOut;
    } finally {
      await scratch.drop();
    }
  },
};

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; s: number }> {
  const started = performance.now();
  const value = await work();
  return { value, s: (performance.now() - started) / 1000 };
}

/** Drawn from the loaded graph by a seeded hash: the 5 top-degree nodes (hubs) and 30 others; pairs of them; names and questions from edges. */
async function workload() {
  const hubs = await topDegreeNodeIds(5);
  const others = await seededNodes(WORKLOAD_SEED, 30);
  const ids = [...hubs, ...others.map((o) => o.id)];
  const topMetaedge = await topMetaedges(ids);
  const edges = await seededEdges(WORKLOAD_SEED, 10);
  const questions = edges.map((e) => `Which ${e.targetKind.toLowerCase()} is linked to ${e.source} by ${e.verb}?`);
  return {
    nodes: ids.map((id) => ({ id, topMetaedge: topMetaedge.get(id)! })),
    pairs: [...ids.slice(0, 4).map((id, i) => [id, ids[(i + 1) % 4]]), ...others.slice(0, 20).map((o, i) => [o.id, others[(i + 10) % 20].id])] as [
      string,
      string,
    ][],
    mentions: [...others.slice(0, 20).map((o) => o.name), ...questions],
    questions,
  };
}
