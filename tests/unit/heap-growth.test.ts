import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The factor each full collection of a child process's main heap set its next limit with, as V8 traces it, after the
 * child called boundHeapGrowth() and collected twice with 20 MB alive.
 */
function growingFactors(nodeFlags: string[]): number[] {
  const child = `
    const { boundHeapGrowth } = await import('./lib/runs/heap-growth.ts');
    boundHeapGrowth();
    globalThis.kept = Array.from({ length: 200_000 }, (_, i) => ({ i, text: 'unit ' + i }));
    gc();
    gc();
  `;
  const out = spawnSync(
    process.execPath,
    [...nodeFlags, '--expose-gc', '--trace-gc', '--trace-gc-verbose', '--import', 'tsx', '--input-type=module', '-e', child],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(out.status, out.stderr).toBe(0);
  return [...out.stdout.matchAll(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/g)].map((m) => Number(m[1]));
}

describe('boundHeapGrowth', () => {
  // V8 picks the factor itself (1.1–4.0, from how fast its collector looked): a worker on a busy machine grew to 4×.
  it('makes every later full collection set the next limit at 1.5× what survived', () => {
    const factors = growingFactors([]);
    expect(factors.length).toBeGreaterThanOrEqual(2);
    expect(factors.slice(-2)).toEqual([1.5, 1.5]);
  });

  it('leaves a --heap-growing-percent given to node alone', () => {
    expect(growingFactors(['--heap-growing-percent=80']).slice(-2)).toEqual([1.8, 1.8]);
  });
});
