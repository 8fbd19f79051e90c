import v8 from 'node:v8';
import vm from 'node:vm';

/** Nearest-rank percentile of a sample (p in 0..100). */
export function percentile(samples: number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Runs every task once to warm up (JIT, caches, the graph snapshot), then
 * `rounds` times more, timing each call.
 */
export async function timeAll<T>(tasks: T[], run: (task: T) => Promise<unknown> | unknown, rounds = 3): Promise<number[]> {
  for (const task of tasks) await run(task);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const task of tasks) {
      const started = performance.now();
      await run(task);
      samples.push(performance.now() - started);
    }
  }
  return samples;
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A full garbage collection (V8's gc(), exposed at run time for a measurement of what is retained). */
export function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
