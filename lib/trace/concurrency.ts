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

/**
 * The critical path: the longest chain of calls each of which began after the
 * one before it had ended (so it may have waited for it), by time in flight.
 * With every call taking the same time it is the number of rounds a run's
 * calls needed; wall time over it is what the run adds to the model's latency.
 */
export function criticalPath(calls: CallInterval[]): { ms: number; calls: number } {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const best = sorted.map((c) => ({ ms: c.end - c.start, calls: 1 }));
  for (let j = 0; j < sorted.length; j++) {
    for (let i = 0; i < j; i++) {
      if (sorted[i].end - SLACK_MS > sorted[j].start) continue;
      const ms = best[i].ms + sorted[j].end - sorted[j].start;
      if (ms > best[j].ms) best[j] = { ms, calls: best[i].calls + 1 };
    }
  }
  return best.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, calls: 0 });
}
