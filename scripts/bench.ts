// `npm run bench [-- --json] [-- --only NAME] [-- --<section> …] [-- --help]`: latency of the KG
// library over a fixed seeded workload, import throughput, method runs and offline accuracy, as a
// table or one JSON object. Benchmarks are modules under scripts/bench/, listed in modules.ts; each
// is either in the default run (kept within 10 minutes on the 2-core machine) or a longer section
// behind its own flag (`--soak`, `--scale`, …). `--help` lists both.
import { ensureDatabase } from '../lib/db/bootstrap';
import { graphHasEdges } from '../lib/kg/store';
import { BENCH_MODULES } from './bench/modules';
import { percentile, round } from './bench/timing';
import type { BenchArgs, BenchModule, BenchRow, GridRow } from './bench/types';

async function main() {
  const args = benchArgs(process.argv.slice(2));
  if (args.has('help')) {
    console.log(usage());
    return;
  }
  const asJson = args.has('json');
  // With --json, stdout holds the one JSON object: what the code under test logs (a worker's run lines) goes to stderr.
  const print = console.log.bind(console);
  if (asJson) console.log = console.error.bind(console);
  const modules = selectModules(args);
  if (!modules.length) throw new Error(`no benchmark matches: see npm run bench -- --help`);
  const log = (line: string) => console.error(`[bench] ${line}`);
  const db = await ensureDatabase();
  try {
    if (modules.some((b) => b.needsKg !== false)) {
      if (!(await graphHasEdges())) throw new Error('the database holds no KG edges: load one first (npm start loads the default knowledge)');
    }
    const metrics: Record<string, number | null> = {};
    const table: BenchRow[] = [];
    const started = performance.now();
    for (const bench of modules) {
      log(`${bench.name}…`);
      const t = performance.now();
      const produced = await bench.run({ log, metrics, args });
      log(`${bench.name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
      for (const row of produced) Object.assign(metrics, rowMetrics(row));
      table.push(...produced);
    }
    metrics.bench_wall_s = round((performance.now() - started) / 1000, 1);
    print(asJson ? JSON.stringify(metrics) : formatTable(table));
  } finally {
    await db.stop();
  }
}

/**
 * Which modules run: the default ones; with section flags (`--soak`, `--scale`, …) those sections
 * instead, plus the default ones when `--default` is given too; `--all` runs every module. `--only
 * NAME` picks, among all modules, those whose name contains NAME (naming a section is asking for it).
 */
function selectModules(args: BenchArgs): BenchModule[] {
  const only = args.value('only');
  if (only) return BENCH_MODULES.filter((b) => b.name.includes(only));
  if (args.has('all')) return BENCH_MODULES;
  const sections = BENCH_MODULES.filter((b) => b.flag && args.has(b.flag));
  if (!sections.length) return BENCH_MODULES.filter((b) => !b.flag);
  return BENCH_MODULES.filter((b) => (b.flag ? sections.includes(b) : args.has('default')));
}

function usage(): string {
  const line = (b: BenchModule) => [`  ${b.flag ? `--${b.flag}`.padEnd(12) : ''}${b.name}: ${b.help}`, ...(b.options ?? []).map((o) => `${''.padEnd(16)}${o}`)];
  return [
    'usage: npm run bench [-- --json] [-- --only NAME] [-- --<section> … [--default]] [-- --all]',
    '',
    'Default run (within 10 minutes on the 2-core machine):',
    ...BENCH_MODULES.filter((b) => !b.flag).flatMap(line),
    '',
    'Longer sections, each behind its own flag (alone, or with the default run if --default is given):',
    ...BENCH_MODULES.filter((b) => b.flag).flatMap(line),
    '',
    '  --json        one JSON object of every keyed figure on stdout (progress goes to stderr)',
    '  --only NAME   only the modules (default or not) whose name contains NAME',
    '  --all         every module, sections included',
  ].join('\n');
}

function benchArgs(argv: string[]): BenchArgs {
  const at = (name: string) => argv.indexOf(`--${name}`);
  const value = (name: string) => {
    const i = at(name);
    return i >= 0 && i + 1 < argv.length && !argv[i + 1].startsWith('--') ? argv[i + 1] : undefined;
  };
  return {
    has: (name) => at(name) >= 0,
    value,
    number(name, fallback) {
      const raw = value(name);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} wants a positive number, not ${raw}`);
      return n;
    },
  };
}

function rowMetrics(row: BenchRow): Record<string, number | null> {
  if (row.type === 'grid') return Object.fromEntries(row.rows.flatMap((r) => r.cells.map((c) => [c.key, c.value])));
  if (!row.key) return {};
  if (row.type === 'value') return { [row.key]: row.value };
  return { [`${row.key}_p50_ms`]: round(percentile(row.samplesMs, 50)), [`${row.key}_p95_ms`]: round(percentile(row.samplesMs, 95)) };
}

function formatTable(rows: BenchRow[]): string {
  const grids = rows.filter((row): row is GridRow => row.type === 'grid');
  const lines = rows
    .flatMap((row) => (row.type === 'grid' ? [] : [row]))
    .map((row) =>
      row.type === 'timing'
        ? [row.label, `${round(percentile(row.samplesMs, 50))} ms`, `${round(percentile(row.samplesMs, 95))} ms`, String(row.samplesMs.length), row.note ?? '']
        : [row.label, row.value === null ? '—' : `${row.value} ${row.unit}`, '', '', row.note ?? ''],
    );
  const header = ['benchmark', 'p50 / value', 'p95', 'n', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
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

// Ends once the figures are out, whatever is still open: a section's leftovers (the load section's instance
// closing its last connections, so the embedded PostgreSQL this process started stays up for them) never hold it.
main().then(
  () => process.stdout.write('', () => process.exit(0)),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
