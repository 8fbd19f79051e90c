import { countItems, recentFinishTimes, type ItemCounts } from './store';

export interface JobProgress extends ItemCounts {
  /** Items finished per second over the recent ones; null until two have finished. */
  rate: number | null;
  /** Estimated milliseconds to go while the job runs; null when unknown or not running. */
  etaMs: number | null;
}

/** Finish times of this many recent items measure the rate: it follows the current pace, not the average since a restart. */
const RATE_WINDOW = 50;

export async function jobProgress(jobId: string, running: boolean): Promise<JobProgress> {
  const [counts, times] = await Promise.all([countItems(jobId), recentFinishTimes(jobId, RATE_WINDOW)]);
  const rate = rateOf(times);
  const remaining = counts.total - counts.done;
  return { ...counts, rate, etaMs: running && rate && remaining ? Math.round((remaining / rate) * 1000) : running && !remaining ? 0 : null };
}

/** Items per second from finish times (ms), newest or oldest first. */
export function rateOf(times: number[]): number | null {
  if (times.length < 2) return null;
  const span = Math.max(...times) - Math.min(...times);
  return span > 0 ? ((times.length - 1) * 1000) / span : null;
}
