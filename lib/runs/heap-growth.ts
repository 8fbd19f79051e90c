import v8 from 'node:v8';

/** How far V8's old generation may grow past what survived its last full collection before it collects again. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Keeps a run worker's heap within 1.5× what its last full collection left alive. V8 otherwise picks the factor from
 * how fast its collector looked against the allocation rate, up to 4× when the process may grow to 2 GB or more
 * (Node's default here is 4 GB): on a busy machine the collector looks slow, so a worker holding 235 MB grew its old
 * space to 640–780 MB between full collections (RSS ≈ 1 GB), and kept the pages those collections left partly used.
 * A fixed factor bounds the peak whatever the load, at the price of a full (concurrent) collection about every 100
 * offline runs instead of every 600–900 (docs/performance.md). The flag is read at every collection, so setting it
 * at run time takes effect from the next one; a `--heap-growing-percent` given to node itself wins.
 */
export function boundHeapGrowth(): void {
  if (process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
