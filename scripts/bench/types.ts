/**
 * The benchmark's plug-in contract: each module measures something and reports
 * rows for the printed table; rows with a `key` also go into the --json object.
 * Modules run in order and see the metrics of the modules before them.
 */
export interface BenchContext {
  /** Progress lines (stderr, so that --json keeps stdout clean). */
  log(line: string): void;
  /** Metrics reported so far, by key. */
  metrics: Readonly<Record<string, number | null>>;
}

/** A latency series: printed as p50/p95 and reported as `${key}_p50_ms` / `${key}_p95_ms`. */
export interface TimingRow {
  type: 'timing';
  label: string;
  key?: string;
  samplesMs: number[];
  note?: string;
}

/** A single figure, reported under `key` as it is. */
export interface ValueRow {
  type: 'value';
  label: string;
  key?: string;
  value: number | null;
  unit: string;
  note?: string;
}

/** A table of figures (rows × columns), printed after the main table; each cell goes into --json under its key. */
export interface GridRow {
  type: 'grid';
  label: string;
  columns: string[];
  rows: { label: string; cells: { key: string; value: number | null }[] }[];
}

export type BenchRow = TimingRow | ValueRow | GridRow;

export interface BenchModule {
  name: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}
