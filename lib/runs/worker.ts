import { getPrisma } from '@/lib/db/client';
import { startEvalWorkers } from '@/lib/eval/jobs/worker';
import { executeRun } from './executor';
import { RUN_QUEUE, enqueueRun, getBoss, stopQueue } from './queue';

/** A run whose worker has not touched it for this long is taken as interrupted. */
const STALE_AFTER_MS = 30_000;
const MAX_ATTEMPTS = 3;

/**
 * Runs that were in flight when their worker stopped: resumed (their completed
 * steps replay from the trace) up to MAX_ATTEMPTS, then failed with the reason.
 */
export async function recoverInterruptedRuns(staleAfterMs = STALE_AFTER_MS, only?: string[]): Promise<{ resumed: string[]; failed: string[] }> {
  const prisma = getPrisma();
  const stale = await prisma.run.findMany({
    // `only`: recover just these runs (known dead), whatever their age.
    where: { status: 'running', updatedAt: { lt: new Date(Date.now() - staleAfterMs) }, ...(only ? { id: { in: only } } : {}) },
    select: { id: true, attempts: true },
  });
  const resumed: string[] = [];
  const failed: string[] = [];
  for (const run of stale) {
    if (run.attempts >= MAX_ATTEMPTS) {
      await prisma.run.updateMany({
        where: { id: run.id, status: 'running' },
        data: { status: 'failed', finishedAt: new Date(), error: `interrupted ${run.attempts} times (server restarts); completed steps are kept` },
      });
      failed.push(run.id);
    } else {
      const { count } = await prisma.run.updateMany({ where: { id: run.id, status: 'running' }, data: { status: 'queued' } });
      if (count) {
        await enqueueRun(run.id);
        resumed.push(run.id);
      }
    }
  }
  return { resumed, failed };
}

export interface RunWorkers {
  stop(): Promise<void>;
}

/** Starts `concurrency` queue consumers in this process, after recovering interrupted runs. */
export async function startRunWorkers({ concurrency = 4, staleAfterMs = STALE_AFTER_MS, log = false } = {}): Promise<RunWorkers> {
  const boss = await getBoss();
  const recovery = await recoverInterruptedRuns(staleAfterMs);
  if (recovery.resumed.length || recovery.failed.length) {
    console.log(`[runs] resumed ${recovery.resumed.length} interrupted run(s), failed ${recovery.failed.length}`);
  }
  for (let i = 0; i < concurrency; i++) {
    await boss.work<{ runId: string }>(RUN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      const status = await executeRun(job.data.runId);
      if (status && log) console.log(`[runs] ${job.data.runId} ${status}`);
    });
  }
  // Workers on other machines may die too: keep sweeping for stale runs.
  const sweep = setInterval(() => void recoverInterruptedRuns(staleAfterMs).catch(() => undefined), 60_000);
  return {
    async stop() {
      clearInterval(sweep);
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
  const runs = await startRunWorkers({ concurrency, log });
  const evaluations = startEvalWorkers();
  return {
    async stop() {
      await evaluations.stop();
      await runs.stop();
    },
  };
}
