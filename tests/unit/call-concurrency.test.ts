import { describe, expect, it } from 'vitest';
import { containers, criticalPath, overlapGroups } from '@/lib/trace/concurrency';

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

describe('calls made inside another call', () => {
  // A streamed generation (step g) reviewed by a monitor and, after a retrieval, a querier (steps under g), then continued.
  const parentOf = new Map<string, string | null>([
    ['g', null],
    ['m', 'g'],
    ['inj', 'g'],
    ['q', 'inj'],
    ['next', null],
    ['side', null],
  ]);
  const calls = [
    { stepId: 'g', start: 0, end: 1000 },
    { stepId: 'm', start: 210, end: 410 },
    { stepId: 'q', start: 600, end: 800 },
    { stepId: 'next', start: 1005, end: 1205 },
    // In flight over the same time, but from a step of its own: independent, not inside.
    { stepId: 'side', start: 100, end: 300 },
  ];

  it('a call from a step below a call in flight over its whole time was made inside it; the innermost such call', () => {
    expect(containers(calls, parentOf)).toEqual([null, 0, 0, null, null]);
    expect(
      containers(
        [
          { stepId: 'g', start: 0, end: 500 },
          { stepId: 'g', start: 10, end: 210 },
        ],
        parentOf,
      ),
    ).toEqual([null, null]);
  });

  it('the critical path runs through the calls made inside one: each waited for the output before it', () => {
    const within = containers(calls, parentOf);
    // generation → monitor → querier → continuation: four calls that waited for each other, not two.
    expect(criticalPath(calls.map((c, i) => ({ ...c, within: within[i] })))).toEqual({ ms: 210 + 200 + 200 + 200, calls: 4 });
    // Read as intervals alone, the generation chains with nothing it outlasts.
    expect(criticalPath(calls).calls).toBe(3);
  });
});
