import PgBoss from 'pg-boss';
import { databaseUrl } from '@/lib/db/client';
import { readEnv } from '@/lib/config';

/**
 * The pg-boss queue runs go through: `HOPSCOPE_RUN_QUEUE`, default "hopscope-runs". Web
 * processes and workers that share a database and this name share the runs; another
 * name keeps a set of processes (a second deployment, a test) apart.
 */
export function runQueue(): string {
  return readEnv().HOPSCOPE_RUN_QUEUE;
}

const globalForQueue = globalThis as unknown as { hopscopeBoss?: Promise<PgBoss>; hopscopeQueues?: Set<string> };

/** One pg-boss instance per process (the Postgres-backed queue that workers on any machine share), with the run queue created. */
export async function getBoss(): Promise<PgBoss> {
  globalForQueue.hopscopeBoss ??= (async () => {
    const boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss', max: 4 });
    boss.on('error', (e) => console.error('[queue]', e instanceof Error ? e.message : e));
    await boss.start();
    return boss;
  })().catch((e) => {
    globalForQueue.hopscopeBoss = undefined;
    throw e;
  });
  const boss = await globalForQueue.hopscopeBoss;
  const queues = (globalForQueue.hopscopeQueues ??= new Set());
  const name = runQueue();
  if (!queues.has(name)) {
    await boss.createQueue(name);
    queues.add(name);
  }
  return boss;
}

export async function enqueueRun(runId: string): Promise<void> {
  const boss = await getBoss();
  // A run's own status and replayable trace handle failures; the queue never retries blindly.
  await boss.send(runQueue(), { runId }, { retryLimit: 0, expireInSeconds: 60 * 60 });
}

export async function stopQueue(): Promise<void> {
  const boss = globalForQueue.hopscopeBoss;
  globalForQueue.hopscopeBoss = undefined;
  globalForQueue.hopscopeQueues = undefined;
  if (boss) await (await boss).stop({ graceful: true, timeout: 10_000 });
}
