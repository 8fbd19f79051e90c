import { getPool, getPrisma } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { enqueueRun } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { errorMessage } from '@/lib/base/errors';
import { toJson } from '@/lib/base/json';
import { tryLockJob, type JobLock } from './lock';
import { loadJob, type LoadedJob } from './load';
import { recordFinishedRuns } from './record';
import type { ItemOutcome } from './schemas';
import { storeSummary } from './summary';
import { verifyReproductionRuns } from '@/lib/reproduce';

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

export interface ItemCounts {
  total: number;
  pending: number;
  inFlight: number;
  done: number;
  errors: number;
}

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
    const done = executeRun(runId).then(() => undefined).finally(() => local.delete(runId));
    local.set(runId, done);
  };
  try {
    const job = await loadJob({ id: jobId });
    if (job.status === 'cancelled') return 'cancelled';
    if (job.status === 'succeeded' || job.status === 'failed') return 'finished';
    await getPrisma().evalJob.updateMany({ where: { id: jobId, status: 'queued' }, data: { status: 'running' } });
    await releaseUnstartedRuns(jobId);
    let last = '';
    for (;;) {
      if (opts.signal?.aborted || !lock.held()) return 'stopped';
      if (opts.mode === 'inline') {
        for (const runId of await reclaimStaleRuns(jobId, [...local.keys()])) execute(runId);
        await supersedeStrandedRuns(jobId, [...local.keys()]);
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

export async function countItems(jobId: string): Promise<ItemCounts> {
  const { rows } = await getPool().query<ItemCounts>(
    `select count(*)::int total,
            count(*) filter (where run_id is null and scores is null)::int pending,
            count(*) filter (where run_id is not null and scores is null)::int "inFlight",
            count(*) filter (where scores is not null)::int done,
            count(*) filter (where scores is not null and scores->>'status' <> 'succeeded')::int errors
       from eval_items where job_id = $1`,
    [jobId],
  );
  return rows[0];
}

async function jobStatus(jobId: string): Promise<string> {
  const { rows } = await getPool().query<{ status: string }>(`select status from eval_jobs where id = $1`, [jobId]);
  return rows[0]?.status ?? 'cancelled';
}

/** Writes the counters the job list shows; returns the job's status. */
async function storeProgress(jobId: string, counts: ItemCounts): Promise<string> {
  const { rows } = await getPool().query<{ status: string }>(
    `update eval_jobs set done = $2, errors = $3, total = $4, updated_at = now() where id = $1 returning status`,
    [jobId, counts.done, counts.errors, counts.total],
  );
  return rows[0]?.status ?? 'cancelled';
}

async function finish(job: LoadedJob, counts: ItemCounts): Promise<void> {
  // A reward table (K2V) is read from its runs' verification, done once they have all finished.
  await verifyReproductionRuns(job);
  await storeSummary(job);
  await getPrisma().evalJob.updateMany({
    where: { id: job.id, status: 'running' },
    data: { status: counts.total && counts.errors === counts.total ? 'failed' : 'succeeded', finishedAt: new Date() },
  });
}

interface PendingItem {
  id: string;
  questionId: string;
  method: string;
  configKey: string;
}

/** The next items in question order, then method and configuration order, so a question's row of the matrix fills together. */
async function nextPendingItems(job: LoadedJob, limit: number): Promise<PendingItem[]> {
  const { rows } = await getPool().query<PendingItem>(
    `select i.id, i.question_id "questionId", i.method, i.config_key "configKey"
       from eval_items i join questions q on q.id = i.question_id
      where i.job_id = $1 and i.run_id is null and i.scores is null
      order by q.ordinal, array_position($2::text[], i.method), array_position($3::text[], i.config_key)
      limit $4`,
    [job.id, job.methods, job.grid.map((g) => g.key), limit],
  );
  return rows;
}

/** Creates the item's run (not yet queued) and links it; an item whose run cannot be made gets a failed outcome instead. */
async function dispatch(job: LoadedJob, item: PendingItem): Promise<string | null> {
  const prisma = getPrisma();
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
    await prisma.evalItem.update({ where: { id: item.id }, data: { runId: id } });
    return id;
  } catch (e) {
    const outcome: ItemOutcome = {
      status: 'failed', correct: null, abstained: false, grounding: null, steps: 0, iterations: null,
      calls: 0, tokensIn: 0, tokensOut: 0, wallMs: 0, answer: null, error: `the run could not be created: ${errorMessage(e)}`,
    };
    await prisma.evalItem.update({ where: { id: item.id }, data: { correct: null, scores: toJson(outcome) } });
    return null;
  }
}

/**
 * On taking over a job: runs that were created but never started may have no
 * queue message (their driver stopped in between), so they are deleted and
 * their items sent again. Started runs are left to finish or resume.
 */
async function releaseUnstartedRuns(jobId: string): Promise<void> {
  await getPool().query(
    `with gone as (delete from runs where eval_job_id = $1 and status = 'queued' and attempts = 0 returning id)
     update eval_items set run_id = null where job_id = $1 and run_id in (select id from gone)`,
    [jobId],
  );
}

/**
 * Inline mode: runs of the job left running by a process that died (no
 * heartbeat) are claimed back and resumed here; their completed steps replay.
 * The conditional update makes this process or a run worker's sweep win, never both.
 */
async function reclaimStaleRuns(jobId: string, executing: string[]): Promise<string[]> {
  const { rows } = await getPool().query<{ id: string }>(
    `update runs set status = 'queued', updated_at = now()
      where eval_job_id = $1 and status = 'running' and updated_at < now() - make_interval(secs => $2) and not (id = any($3::text[]))
      returning id`,
    [jobId, STALE_RUN_MS / 1000, executing],
  );
  return rows.map((r) => r.id);
}

/**
 * Inline mode: a run of the job that sits queued for a long time after it
 * started once was put back on the run queue by a run worker's sweep, and no
 * worker is taking it (this process runs none). It is cancelled, so that no
 * late worker can run it beside a replacement, and its item is sent again;
 * the cancelled run keeps its partial trace.
 */
async function supersedeStrandedRuns(jobId: string, executing: string[]): Promise<void> {
  await getPool().query(
    `with stranded as (
       update runs set status = 'cancelled', finished_at = now(), updated_at = now(),
                       error = 'superseded: queued with no worker to take it; the evaluation sent its item again'
        where eval_job_id = $1 and status = 'queued' and attempts > 0 and updated_at < now() - make_interval(secs => $2)
          and not (id = any($3::text[]))
        returning id)
     update eval_items set run_id = null where job_id = $1 and scores is null and run_id in (select id from stranded)`,
    [jobId, STALE_RUN_MS / 1000, executing],
  );
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
