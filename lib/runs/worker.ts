import { startEvalWorkers } from '@/lib/eval/jobs/worker';
import { executeRun, HEARTBEAT_MS } from './executor';
import { servableBackends, waitingFor } from './backend';
import { enqueueRun, ensureQueue, getBoss, runQueueFor, stopQueue } from './queue';
import { failStale, requeueStale, staleRuns, takeOrphanedRuns, type StaleRun } from './store/lease';
import { isConnectionLoss } from '@/lib/db/connection-loss';
import { prepareRuns } from './prepare';
import { boundHeapGrowth } from './heap-growth';

/**
 * A run whose lease ran out (runs.lease_until, per run: see LEASE_MS) is
 * suspected dead; the sweep takes it over only when it is still expired and
 * unchanged at a later look, so a live worker that was cut off (a database
 * restart) renews its lease first and keeps its run. A dead worker's offline
 * run is re-queued at most LEASE_MS.offline + 2 × SWEEP_MS (14 s) after its last
 * heartbeat; a model run's worker may stall for over a minute and keep its run.
 */
const CONFIRM_MS = HEARTBEAT_MS;
const SWEEP_MS = 2_500;
const MAX_ATTEMPTS = 3;
/** A queued run without a waiting queue job for this long is sent again. */
const ORPHAN_AFTER_MS = 10_000;

/**
 * Runs that were in flight when their worker stopped: resumed (their completed
 * steps replay from the trace) up to MAX_ATTEMPTS, then failed with the reason.
 * `only`: just these runs (known dead), whatever their lease.
 */
export async function recoverInterruptedRuns(only?: string[]): Promise<{ resumed: string[]; failed: string[] }> {
  const stale = await staleRuns(only);
  const outcomes = await Promise.all(stale.map(takeOver));
  return {
    resumed: stale.filter((_, i) => outcomes[i] === 'resumed').map((r) => r.id),
    failed: stale.filter((_, i) => outcomes[i] === 'failed').map((r) => r.id),
  };
}

/** Re-queues (or, after MAX_ATTEMPTS, fails) a run, only if its lease is still the one seen expired (nobody renewed or took it since). */
async function takeOver(run: StaleRun): Promise<'resumed' | 'failed' | null> {
  if (run.attempts >= MAX_ATTEMPTS) {
    const failed = await failStale(run, `interrupted ${run.attempts} times (its worker stopped: a restart or a lost database); completed steps are kept`);
    return failed ? 'failed' : null;
  }
  if (!(await requeueStale(run))) return null;
  await enqueueRun(run.id, run.backendKey);
  return 'resumed';
}

/**
 * The periodic recovery of every worker process: a run seen stale is taken
 * over when it is still untouched CONFIRM_MS later (two looks), so one missed
 * heartbeat, or a database that just came back, never steals a live run.
 */
function recoverySweep() {
  const suspects = new Map<string, { lease: string | null; attempts: number; since: number }>();
  return async function sweep(): Promise<{ resumed: number; failed: number; resent: number }> {
    const now = Date.now();
    const stale = await staleRuns();
    for (const id of suspects.keys()) if (!stale.some((r) => r.id === id)) suspects.delete(id);
    let resumed = 0;
    let failed = 0;
    for (const run of stale) {
      const seen = suspects.get(run.id);
      if (!seen || seen.lease !== run.lease || seen.attempts !== run.attempts) {
        suspects.set(run.id, { lease: run.lease, attempts: run.attempts, since: now });
        continue;
      }
      if (now - seen.since < CONFIRM_MS) continue;
      suspects.delete(run.id);
      const outcome = await takeOver(run);
      if (outcome === 'resumed') resumed++;
      if (outcome === 'failed') failed++;
    }
    return { resumed, failed, resent: await requeueOrphans() };
  };
}

/**
 * Queued runs nobody will take: their queue job was lost (a database killed
 * before it wrote the job, an enqueue that failed after the run was stored)
 * or taken by a worker that died before claiming the run. Sent again; the
 * claim in executeRun is atomic, so a run is never executed twice.
 */
async function requeueOrphans(): Promise<number> {
  // A job waiting on ANY queue keeps its run: another deployment's queue (HOPSCOPE_RUN_QUEUE) on the same
  // database is not an orphan, and taking it would send the run to workers it was not meant for.
  const orphans = await takeOrphanedRuns(ORPHAN_AFTER_MS);
  for (const { id, key } of orphans) await enqueueRun(id, key);
  return orphans.length;
}

/** Retries `start` with exponential backoff (0.5 s doubling to 10 s) until it succeeds or `signal` aborts: a worker waits out a database that is down. */
export async function withBackoff<T>(what: string, start: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
    try {
      return await start();
    } catch (e) {
      if (signal?.aborted) throw e;
      console.error(`[runs] ${what} failed (${e instanceof Error ? e.message : String(e)}); retrying in ${delay / 1000} s`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/**
 * A database that goes away must not end a worker process: pg-boss marks a
 * finished job without waiting for the write (an unhandled rejection when the
 * database is gone at that moment), and a connection dropping outside any
 * query surfaces as an 'error' event. Such lost connections are logged and
 * survived (the pools reconnect, the sweep resumes the runs); any other
 * uncaught error still ends the process, as by default.
 */
function surviveLostConnections() {
  const marked = globalThis as unknown as { hopscopeSurvivesLostConnections?: boolean };
  if (marked.hopscopeSurvivesLostConnections) return;
  marked.hopscopeSurvivesLostConnections = true;
  const survive = (reason: unknown) => {
    if (!isConnectionLoss(reason)) return false;
    console.error(`[runs] database connection lost (${(reason as Error).message}); waiting for it to come back`);
    return true;
  };
  process.on('unhandledRejection', (reason) => {
    if (!survive(reason)) throw reason;
  });
  process.on('uncaughtException', (error) => {
    if (survive(error)) return;
    console.error(error);
    process.exit(1);
  });
}

export interface RunWorkers {
  stop(): Promise<void>;
}

/**
 * Starts `concurrency` queue consumers in this process and the recovery sweep.
 * A database that is down at start is waited for (with backoff); one that goes
 * away later is survived: the queue and the pools reconnect by themselves, a
 * run whose database writes failed is left running and the sweep resumes it.
 */
export async function startRunWorkers({ concurrency = 4, log = false } = {}): Promise<RunWorkers> {
  surviveLostConnections();
  const boss = await withBackoff('connecting to the run queue', getBoss);
  // The offline queue, and the queue of this process's model endpoint when it has one: another endpoint's runs are never taken here.
  const queues = servableBackends().map(runQueueFor);
  for (const queue of queues) await ensureQueue(boss, queue);
  if (log) console.log(`[runs] serving: ${servableBackends().join('; ')}`);
  for (const queue of queues)
    for (let i = 0; i < concurrency; i++) {
      const worker: string = await boss.work<{ runId: string }>(queue, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        // A run whose database writes failed stays `running` for the sweep to resume; the queue job itself ends here.
        const status = await executeRun(job.data.runId).catch((e) => {
          console.error(`[runs] ${job.data.runId} interrupted: ${e instanceof Error ? e.message : String(e)}`);
          return null;
        });
        if (status && log) console.log(`[runs] ${job.data.runId} ${status}`);
        // Look for the next run at once: the polling interval is for an empty queue, not a wait between queued runs.
        boss.notifyWorker(worker);
      });
    }
  // Workers anywhere may die: keep sweeping for runs nobody touches any more. The next sweep is SWEEP_MS after
  // this one ends, never beside it: on a loaded machine a sweep that sends 100 orphans outlasts SWEEP_MS, and
  // sweeps piling up took the pool from the runs' heartbeats and writes.
  const sweep = recoverySweep();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let looking: Promise<void>;
  const look = async () => {
    const { resumed, failed, resent } = await sweep().catch(() => ({ resumed: 0, failed: 0, resent: 0 }));
    if (resumed || failed) console.log(`[runs] resumed ${resumed} interrupted run(s), failed ${failed}`);
    if (resent) console.log(`[runs] sent ${resent} queued run(s) again: no queue job was waiting for them`);
    if (!stopped) timer = setTimeout(() => void (looking = look()), SWEEP_MS);
  };
  looking = look();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      // A sweep in flight may still send runs: the queue stops after it.
      await looking;
      await stopQueue();
    },
  };
}

/**
 * Everything a worker process runs: `concurrency` run consumers on the shared
 * queue and the evaluation supervisor. `npm start` runs it beside the web
 * server (unless HOPSCOPE_WORKERS=off); `npm run worker` runs it alone, any
 * number of times on any machine that reaches the database.
 */
export async function startWorkers({ concurrency = 4, log = false } = {}): Promise<RunWorkers> {
  boundHeapGrowth();
  await prepareRuns();
  const runs = await startRunWorkers({ concurrency, log });
  const evaluations = startEvalWorkers();
  return {
    async stop() {
      await evaluations.stop();
      await runs.stop();
    },
  };
}
