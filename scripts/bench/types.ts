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
  /** The command line's options (`--rows 1000`, `--soak-runs 600`), for modules that take some. */
  args: BenchArgs;
}

export interface BenchArgs {
  /** Whether `--name` was given. */
  has(name: string): boolean;
  /** The value after `--name`, if given. */
  value(name: string): string | undefined;
  /** The number after `--name`, or `fallback`; a value that is no positive number is an error. */
  number(name: string, fallback: number): number;
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
  /**
   * Omitted: part of the default run (`npm run bench`), which must stay within
   * 10 minutes on the 2-core machine. Set: a longer section that runs only when
   * `--<flag>` is given (e.g. `soak` → `--soak`), listed by `--help`.
   */
  flag?: string;
  /** One line for `--help`: what the section measures and roughly how long it takes. */
  help: string;
  /** Its own options for `--help`, e.g. `--soak-runs N  runs in all (default 3000)`. */
  options?: string[];
  /** False for a module that brings its own graph (the scale benchmark): the loaded-KG check is skipped. */
  needsKg?: boolean;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}
