import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '@/lib/base/memo';

describe('BoundedMemo', () => {
  it('computes a key once and gives back the kept value', () => {
    const memo = new BoundedMemo<string, { n: number }>(10);
    let made = 0;
    const make = (k: string) => ({ n: (made++, k.length) });
    const first = memo.get('abc', make);
    expect(memo.get('abc', make)).toBe(first);
    expect(made).toBe(1);
    expect(memo.get('de', make)).toEqual({ n: 2 });
    expect(made).toBe(2);
  });

  it('never holds more than its bound: past it the memory starts again', () => {
    const memo = new BoundedMemo<number, number>(100);
    let made = 0;
    for (let round = 0; round < 3; round++) for (let k = 0; k < 250; k++) memo.get(k, (x) => (made++, x * 2));
    expect(memo.size).toBeLessThanOrEqual(100);
    // Every key was computed again after each fresh start: 750 gets, none found twice in a row of 250 distinct keys.
    expect(made).toBe(750);
    expect(memo.get(249, () => -1)).toBe(498);
  });
});
