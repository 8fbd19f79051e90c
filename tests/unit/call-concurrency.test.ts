import { describe, expect, it } from 'vitest';
import { criticalPath, overlapGroups } from '@/lib/trace/concurrency';

describe('overlap groups and the critical path of a run’s model calls', () => {
  // Two rounds of parallel calls (3 then 2), then one call alone.
  const calls = [
    { start: 0, end: 200 },
    { start: 5, end: 210 },
    { start: 3, end: 190 },
    { start: 215, end: 420 },
    { start: 220, end: 400 },
    { start: 430, end: 630 },
  ];

  it('numbers each set of calls in flight together, in order of start; a call alone has none', () => {
    expect(overlapGroups(calls)).toEqual([1, 1, 1, 2, 2, null]);
  });

  it('the critical path is the longest chain of calls each started after the one before ended', () => {
    expect(criticalPath(calls)).toEqual({ ms: 205 + 205 + 200, calls: 3 });
  });

  it('a call starting within a millisecond or two of the previous end (rounded times) waited for it', () => {
    const chain = [
      { start: 0, end: 100 },
      { start: 99, end: 200 },
    ];
    expect(overlapGroups(chain)).toEqual([null, null]);
    expect(criticalPath(chain).calls).toBe(2);
    expect(criticalPath([])).toEqual({ ms: 0, calls: 0 });
  });
});
