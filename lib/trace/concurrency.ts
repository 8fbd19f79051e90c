/**
 * Which of a run's model calls were in flight together, read from their
 * recorded start and latency (pure). Times are milliseconds; a call that began
 * within SLACK_MS of another's end waited for it (recorded times are rounded
 * to the millisecond).
 */
export interface CallInterval {
  start: number;
  end: number;
}

const SLACK_MS = 2;

/** A group number (1, 2, … in order of first start) per call; calls overlapping, directly or through others, share one; null: it overlapped none. */
export function overlapGroups(calls: CallInterval[]): (number | null)[] {
  const order = calls.map((_, i) => i).sort((a, b) => calls[a].start - calls[b].start);
  const groups: (number | null)[] = calls.map(() => null);
  let next = 0;
  let members: number[] = [];
  let end = -Infinity;
  const close = () => {
    if (members.length > 1) {
      next++;
      for (const m of members) groups[m] = next;
    }
  };
  for (const i of order) {
    // Sorted by start: a call overlaps the group when it starts before the group's latest end.
    if (calls[i].start < end - SLACK_MS) {
      members.push(i);
      end = Math.max(end, calls[i].end);
    } else {
      close();
      members = [i];
      end = calls[i].end;
    }
  }
  close();
  return groups;
}

/** A call with the step that made it, for `containers`. */
export interface SteppedCall extends CallInterval {
  stepId: string | null;
}

/**
 * For each call, the call it was made inside (an index), or null: a call whose step lies below the step of a call
 * in flight from before it started until after it ended (EIGEN-1's monitor, querier and injector, asked while a generation
 * streams) waited for that call's output and is part of it. The innermost such call.
 */
export function containers(calls: SteppedCall[], parentOf: ReadonlyMap<string, string | null>): (number | null)[] {
  // Strictly above: two calls of one step in flight together are independent, however their times nest.
  const ancestors = (stepId: string | null) => {
    const seen = new Set<string>();
    for (let at = stepId && (parentOf.get(stepId) ?? null); at && !seen.has(at); at = parentOf.get(at) ?? null) seen.add(at);
    return seen;
  };
  return calls.map((c, j) => {
    const under = ancestors(c.stepId);
    let best: number | null = null;
    calls.forEach((o, i) => {
      if (i === j || !o.stepId || !under.has(o.stepId)) return;
      if (o.start > c.start || o.end + SLACK_MS < c.end || (o.start === c.start && o.end === c.end)) return;
      if (best === null || o.start >= calls[best].start) best = i;
    });
    return best;
  });
}

/**
 * The critical path: the longest chain of calls each of which began after the
 * one before it had ended (so it may have waited for it), or was made inside it
 * (`within`, see `containers`: it waited for that call's output). With every call taking the same time it is the number of rounds a
 * run's calls needed; wall time over it is what the run adds to the model's latency.
 * Longest by calls, then by time in flight.
 */
export function criticalPath(calls: (CallInterval & { within?: number | null })[]): { ms: number; calls: number } {
  const order = calls.map((_, i) => i).sort((a, b) => calls[a].start - calls[b].start || calls[b].end - calls[a].end);
  const best = new Map(order.map((i) => [i, { ms: calls[i].end - calls[i].start, calls: 1 }]));
  for (const [n, j] of order.entries()) {
    const c = calls[j];
    for (const i of order.slice(0, n)) {
      const p = calls[i];
      const inside = c.within === i;
      if (!inside && p.end - SLACK_MS > c.start) continue;
      // Inside: the chain runs up to this call's start within the outer one, then through this call.
      const ms = best.get(i)!.ms - (inside ? p.end - c.start : 0) + c.end - c.start;
      const chain = { ms, calls: best.get(i)!.calls + 1 };
      if (longer(chain, best.get(j)!)) best.set(j, chain);
    }
  }
  return [...best.values()].reduce((a, b) => (longer(b, a) ? b : a), { ms: 0, calls: 0 });
}

/** More calls waiting for each other, then more time in flight: a call that others were made inside is in flight while they run, so time alone would prefer it to them. */
function longer(a: { ms: number; calls: number }, b: { ms: number; calls: number }): boolean {
  return a.calls > b.calls || (a.calls === b.calls && a.ms > b.ms);
}
