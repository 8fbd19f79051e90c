import { executeRun } from '@/lib/runs/executor';
import { enqueueRun } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { errorMessage } from '@/lib/base/errors';
import { tryLockJob, type JobLock } from './store/lock';
import { recordFinishedRuns } from './record';
import type { ItemOutcome } from './schemas';
import { storeSummary } from './summary';
import { verifyReproductionRuns } from '@/lib/reproduce/verify-runs';
import {
  countItems,
  jobStatus,
  linkItemRun,
  loadJob,
  markJobFinished,
  markJobRunning,
  nextPendingItems,
  reclaimStaleRuns,
  releaseUnstartedRuns,
  storeItemOutcome,
  storeProgress,
  supersedeStrandedRuns,
  type ItemCounts,
  type LoadedJob,
  type PendingItem,
} from './store';

/**
 * The driver of one evaluation job: it records finished runs on their items,
 * keeps at most `concurrency` of the job's runs in flight, and finishes the job
 * when every item has an outcome. Items are rows, so a driver that stops (a
 * restart, a crash) loses nothing: the next one records what finished, sends
 * what never started, and leaves completed items alone.
 *
 * Two ways to execute the runs:
 * - `queue`: on the shared run queue, for the server's run workers on any machine;
 * - `inline`: in this process (the CLI, the benchmark).
 */
export type DriveMode = 'queue' | 'inline';

export type { ItemCounts };

export interface DriveOptions {
  mode: DriveMode;
  /** The job's lock when the caller already holds it (createEvalJob with `lock`); released when the driver stops. */
  lock?: JobLock;
  /** How often the driver looks at its runs when none ends (a run that ends wakes it: inline at once, on the queue by NOTIFY). */
  pollMs?: number;
  signal?: AbortSignal;
  onProgress?: (counts: ItemCounts) => void;
}

/** finished: every item has an outcome; busy: another driver holds the job; stopped: aborted, or the lock was lost. */
export type DriveResult = 'finished' | 'cancelled' | 'busy' | 'stopped';

/** A running run whose heartbeat is older than this was interrupted (the run workers use the same rule). */
const STALE_RUN_MS = 30_000;

export async function driveEvalJob(jobId: string, opts: DriveOptions): Promise<DriveResult> {
  const lock = opts.lock ?? (await tryLockJob(jobId));
  if (!lock) return 'busy';
  const local = new Map<string, Promise<void>>();
  const execute = (runId: string) => {
    const done = executeRun(runId)
      .then(() => undefined)
      .finally(() => local.delete(runId));
    local.set(runId, done);
  };
  try {
    const job = await loadJob({ id: jobId });
    if (job.status === 'cancelled') return 'cancelled';
    if (job.status === 'succeeded' || job.status === 'failed') return 'finished';
    await markJobRunning(jobId);
    await releaseUnstartedRuns(jobId);
    let last = '';
    for (;;) {
      if (opts.signal?.aborted || !lock.held()) return 'stopped';
      if (opts.mode === 'inline') {
        // This process runs the job's runs itself: a run left running by a process that died is resumed here
        // (its completed steps replay), and one a run worker's sweep put back on the queue, where no worker
        // takes it, is cancelled and its item sent again.
        for (const runId of await reclaimStaleRuns(jobId, [...local.keys()], STALE_RUN_MS)) execute(runId);
        await supersedeStrandedRuns(jobId, [...local.keys()], STALE_RUN_MS);
      }
      await recordFinishedRuns(jobId);
      const counts = await countItems(jobId);
      const moved = JSON.stringify(counts) !== last;
      if (moved) {
        last = JSON.stringify(counts);
        opts.onProgress?.(counts);
      }
      // The counters are written only when they move; either way the status is read, since a cancel may have arrived.
      const status = moved ? await storeProgress(jobId, counts) : await jobStatus(jobId);
      if (status === 'cancelled') return 'cancelled';
      if (!counts.pending && !counts.inFlight) {
        await finish(job, counts);
        return 'finished';
      }
      const free = job.settings.concurrency - counts.inFlight;
      if (free > 0 && counts.pending) {
        for (const item of await nextPendingItems(job, free)) {
          const runId = await dispatch(job, item);
          if (!runId) continue;
          if (opts.mode === 'queue') await enqueueRun(runId);
          else execute(runId);
        }
      }
      await pause(opts.pollMs ?? (opts.mode === 'inline' ? 250 : 500), [...local.values()], lock, opts.signal);
    }
  } finally {
    // Runs this process started finish (or stop at their next step when cancelled) before the lock goes.
    await Promise.allSettled([...local.values()]);
    await lock.release();
  }
}

async function finish(job: LoadedJob, counts: ItemCounts): Promise<void> {
  // A reward table (K2V) is read from its runs' verification, done once they have all finished.
  await verifyReproductionRuns(job);
  await storeSummary(job);
  await markJobFinished(job.id, counts.total && counts.errors === counts.total ? 'failed' : 'succeeded');
}

/** Creates the item's run (not yet queued) and links it; an item whose run cannot be made gets a failed outcome instead. */
async function dispatch(job: LoadedJob, item: PendingItem): Promise<string | null> {
  const config = job.grid.find((g) => g.key === item.configKey);
  try {
    if (!config) throw new Error(`configuration ${item.configKey} is not in the job's grid`);
    const { id } = await createRun(
      {
        questionId: item.questionId,
        method: item.method,
        switches: config.switches,
        kgShuffle: config.kgShuffle || undefined,
        params: { ...job.settings.methodParams[item.method], ...config.params },
        backend: job.settings.backend.backend,
      },
      { enqueue: false, evalJobId: job.id, ownerId: job.ownerId },
    );
    await linkItemRun(item.id, id);
    return id;
  } catch (e) {
    const outcome: ItemOutcome = {
      status: 'failed',
      correct: null,
      abstained: false,
      grounding: null,
      steps: 0,
      iterations: null,
      calls: 0,
      tokensIn: 0,
      tokensOut: 0,
      wallMs: 0,
      answer: null,
      error: `the run could not be created: ${errorMessage(e)}`,
    };
    await storeItemOutcome(item.id, outcome);
    return null;
  }
}

/** Waits `ms`, or less when a run of the job ends (inline here, or announced by a worker anywhere) or the driver is stopped. */
function pause(ms: number, running: Promise<void>[], lock: JobLock, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const unsubscribe = lock.onRunEnded(done);
    function done() {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
    for (const r of running) void r.then(done, done);
  });
}
