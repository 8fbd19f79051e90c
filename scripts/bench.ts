// `npm run bench [-- --json] [-- --only NAME]`: latency of the KG library over a fixed seeded
// workload (plus import throughput, the in-memory BFS lower bound, method runs and offline
// accuracy), as a table or one JSON object. Benchmarks are modules under scripts/bench/,
// listed in modules.ts; --only runs those whose name contains NAME. `-- --scale [--rows N]`:
// the synthetic PrimeKG benchmark alone (scripts/bench/scale.ts).
import { ensureDatabase } from '../lib/db/bootstrap';
import { closeDb, getPool } from '../lib/db/client';
import { BENCH_MODULES } from './bench/modules';
import { FULL_SCALE_ROWS, scaleBench } from './bench/scale';
import { percentile, round } from './bench/timing';
import type { BenchRow, GridRow } from './bench/types';

async function main() {
  const asJson = process.argv.includes('--json');
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const log = (line: string) => console.error(`[bench] ${line}`);
  const db = await ensureDatabase();
  try {
    // --scale [--rows N]: only the synthetic PrimeKG benchmark, in a scratch database.
    const scale = process.argv.includes('--scale');
    const rowsAt = process.argv.indexOf('--rows');
    const modules = scale ? [scaleBench(rowsAt > 0 ? Number(process.argv[rowsAt + 1]) : FULL_SCALE_ROWS)] : BENCH_MODULES;
    const { rows } = await getPool().query<{ n: number }>('select count(*)::int as n from edges');
    if (!scale && !rows[0].n) throw new Error('the database holds no KG edges: load one first (npm start loads the default knowledge)');

    const metrics: Record<string, number | null> = {};
    const table: BenchRow[] = [];
    for (const bench of modules.filter((b) => !only || b.name.includes(only))) {
      log(`${bench.name}…`);
      const produced = await bench.run({ log, metrics });
      for (const row of produced) Object.assign(metrics, rowMetrics(row));
      table.push(...produced);
    }
    console.log(asJson ? JSON.stringify(metrics) : formatTable(table));
  } finally {
    await closeDb();
    await db.stop();
  }
}

function rowMetrics(row: BenchRow): Record<string, number | null> {
  if (row.type === 'grid') return Object.fromEntries(row.rows.flatMap((r) => r.cells.map((c) => [c.key, c.value])));
  if (!row.key) return {};
  if (row.type === 'value') return { [row.key]: row.value };
  return { [`${row.key}_p50_ms`]: round(percentile(row.samplesMs, 50)), [`${row.key}_p95_ms`]: round(percentile(row.samplesMs, 95)) };
}

function formatTable(rows: BenchRow[]): string {
  const grids = rows.filter((row): row is GridRow => row.type === 'grid');
  const lines = rows.flatMap((row) => (row.type === 'grid' ? [] : [row])).map((row) =>
    row.type === 'timing'
      ? [row.label, `${round(percentile(row.samplesMs, 50))} ms`, `${round(percentile(row.samplesMs, 95))} ms`, String(row.samplesMs.length), row.note ?? '']
      : [row.label, row.value === null ? '—' : `${row.value} ${row.unit}`, '', '', row.note ?? ''],
  );
  const header = ['benchmark', 'p50 / value', 'p95', 'n', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const main = lines.length ? [[format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n')] : [];
  return [...main, ...grids.map(formatGrid)].join('\n\n');
}

function formatGrid(grid: GridRow): string {
  const header = ['', ...grid.columns];
  const lines = grid.rows.map((r) => [r.label, ...r.cells.map((c) => (c.value === null ? '—' : c.value.toFixed(2)))]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [grid.label, format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
