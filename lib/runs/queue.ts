import type PgBoss from 'pg-boss';
import { createHash } from 'node:crypto';
import { cachedRead } from '@/lib/db/cached-read';
import { databaseUrl } from '@/lib/db/url';
import { readBackendKey } from './store/runs';
import { readEnv } from '@/lib/config';

/**
 * The pg-boss queue runs go through: `HOPSCOPE_RUN_QUEUE`, default "hopscope-runs". Web
 * processes and workers that share a database and this name share the runs; another
 * name keeps a set of processes (a second deployment, a test) apart.
 */
export function runQueue(): string {
  return readEnv().HOPSCOPE_RUN_QUEUE;
}

/**
 * The queue of the runs that need this backend (lib/runs/backend.ts backendKey):
 * offline runs go on `runQueue()`, which every worker serves; a model
 * endpoint's runs on a queue of their own, served only by workers configured
 * with that endpoint and model, so no other worker ever takes them.
 */
export function runQueueFor(backendKey: string): string {
  return backendKey === 'offline' ? runQueue() : `${runQueue()}.${createHash('sha256').update(backendKey).digest('hex').slice(0, 16)}`;
}

const globalForQueue = globalThis as unknown as { hopscopeBoss?: Promise<PgBoss>; hopscopeQueues?: Map<string, Promise<void>> };

/** One pg-boss instance per process (the Postgres-backed queue that workers on any machine share), with the run queue created. */
export async function getBoss(): Promise<PgBoss> {
  globalForQueue.hopscopeBoss ??= (async () => {
    // Loaded when a queue is first used: a process that never sends or takes a run (a CLI command) skips it.
    const { default: PgBoss } = await import('pg-boss');
    const boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss', max: 4 });
    boss.on('error', (e) => console.error('[queue]', e instanceof Error ? e.message : e));
    await boss.start();
    return boss;
  })().catch((e) => {
    globalForQueue.hopscopeBoss = undefined;
    throw e;
  });
  const boss = await globalForQueue.hopscopeBoss;
  await ensureQueue(boss, runQueue());
  return boss;
}

/** Creates a queue once per process: requests arriving together share one creation, and a failed one is tried again by the next. */
export function ensureQueue(boss: PgBoss, name: string): Promise<void> {
  return cachedRead((globalForQueue.hopscopeQueues ??= new Map()), name, () => createQueue(boss, name));
}

/** PostgreSQL's deadlock_detected: another process (a worker starting, a web server's first run) created the same queue at once. */
const DEADLOCK = '40P01';

async function createQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await boss.createQueue(name);
    } catch (e) {
      // One of the two is chosen to fail; tried again, it finds the queue the other made.
      if (attempt >= 5 || (e as { code?: unknown }).code !== DEADLOCK) throw e;
    }
  }
}

/** Sends a run to the queue of the backend it needs (read from the run when not given). */
export async function enqueueRun(runId: string, backendKey?: string): Promise<void> {
  const key = backendKey ?? (await readBackendKey(runId)) ?? 'offline';
  const boss = await getBoss();
  const queue = runQueueFor(key);
  await ensureQueue(boss, queue);
  // A run's own status and replayable trace handle failures; the queue never retries blindly.
  await boss.send(queue, { runId }, { retryLimit: 0, expireInSeconds: 60 * 60 });
}

export async function stopQueue(): Promise<void> {
  const boss = globalForQueue.hopscopeBoss;
  globalForQueue.hopscopeBoss = undefined;
  globalForQueue.hopscopeQueues = undefined;
  if (boss) await (await boss).stop({ graceful: true, timeout: 10_000 });
}
