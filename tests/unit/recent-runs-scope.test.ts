import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED_RUNS, parseRememberedRuns, rememberRun } from '@/lib/runs/browser-runs';

describe('runs remembered by this browser', () => {
  it('puts the newest run first, once, and caps the list', () => {
    let cookie = rememberRun(undefined, 'a');
    cookie = rememberRun(cookie, 'b');
    cookie = rememberRun(cookie, 'a');
    expect(parseRememberedRuns(cookie)).toEqual(['a', 'b']);
    for (let i = 0; i < MAX_REMEMBERED_RUNS + 5; i++) cookie = rememberRun(cookie, `run${i}`);
    const ids = parseRememberedRuns(cookie);
    expect(ids).toHaveLength(MAX_REMEMBERED_RUNS);
    expect(ids[0]).toBe(`run${MAX_REMEMBERED_RUNS + 4}`);
  });

  it('drops anything that is not a run id from a tampered cookie', () => {
    expect(parseRememberedRuns("ok1.bad id.x'--.ok2..ok1")).toEqual(['ok1', 'ok2']);
    expect(parseRememberedRuns('')).toEqual([]);
    expect(rememberRun('ok1', 'not an id')).toBe('ok1');
  });
});
