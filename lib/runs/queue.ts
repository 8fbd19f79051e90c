import PgBoss from 'pg-boss';
import { databaseUrl } from '@/lib/db/client';

export const RUN_QUEUE = 'hopscope-runs';

const globalForQueue = globalThis as unknown as { hopscopeBoss?: Promise<PgBoss> };

/** One pg-boss instance per process: the Postgres-backed queue that workers on any machine share. */
export function getBoss(): Promise<PgBoss> {
  globalForQueue.hopscopeBoss ??= (async () => {
    const boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss', max: 4 });
    boss.on('error', (e) => console.error('[queue]', e instanceof Error ? e.message : e));
    await boss.start();
    await boss.createQueue(RUN_QUEUE);
    return boss;
  })().catch((e) => {
    globalForQueue.hopscopeBoss = undefined;
    throw e;
  });
  return globalForQueue.hopscopeBoss;
}

export async function enqueueRun(runId: string): Promise<void> {
  const boss = await getBoss();
  // A run's own status and replayable trace handle failures; the queue never retries blindly.
  await boss.send(RUN_QUEUE, { runId }, { retryLimit: 0, expireInSeconds: 60 * 60 });
}

export async function stopQueue(): Promise<void> {
  const boss = globalForQueue.hopscopeBoss;
  globalForQueue.hopscopeBoss = undefined;
  if (boss) await (await boss).stop({ graceful: true, timeout: 10_000 });
}
