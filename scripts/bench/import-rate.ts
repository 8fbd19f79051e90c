import { kgStats } from '../../lib/kg';
import type { BenchModule } from './types';

/** Import throughput of the latest graph import, as the importer recorded it (edge_count / duration_ms). */
export const importRate: BenchModule = {
  name: 'import rate',
  help: "the last graph import's edges per second, as the importer recorded it (instant)",
  async run() {
    const last = (await kgStats()).lastImport;
    const perSecond = last && last.durationMs > 0 ? Math.round((last.edgeCount / last.durationMs) * 1000) : null;
    return [
      {
        type: 'value',
        label: 'graph import',
        key: 'import_edges_per_s',
        value: perSecond,
        unit: 'edges/s',
        note: last ? `${last.source} ${last.version}: ${last.edgeCount} edges in ${last.durationMs} ms` : 'no kg_imports record',
      },
    ];
  },
};
