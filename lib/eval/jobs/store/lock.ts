import pg from 'pg';
import { z } from 'zod';
import { databaseUrl } from '@/lib/db/client';
import { queryRow } from '@/lib/db/rows';

/** The channel a finished run of an evaluation announces itself on (payload: the job id); see lib/runs/executor. */
export const RUN_ENDED_CHANNEL = 'hopscope_eval_run_ended';

export interface JobLock {
  /** False once the connection holding the lock has dropped: the driver must stop. */
  held(): boolean;
  /** Calls `listener` whenever a run of the job ends, in any process; returns the unsubscribe. */
  onRunEnded(listener: () => void): () => void;
  release(): Promise<void>;
}

/**
 * One driver per job across every process and machine: a Postgres session
 * advisory lock on a connection of its own (which also LISTENs for the job's
 * runs ending). A driver that dies drops its
 * connection and so its lock, and another process's supervisor takes over.
 */
export async function tryLockJob(jobId: string): Promise<JobLock | null> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  let lost = false;
  client.on('error', () => {
    lost = true;
  });
  await client.connect();
  try {
    const row = await queryRow(client, z.object({ locked: z.boolean() }), `select pg_try_advisory_lock(hashtext('hopscope-eval-job'), hashtext($1)) locked`, [
      jobId,
    ]);
    if (!row?.locked) {
      await client.end();
      return null;
    }
    // The lock's session also listens for the job's runs ending, so a driver need not poll for them.
    await client.query(`listen ${RUN_ENDED_CHANNEL}`);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  const listeners = new Set<() => void>();
  client.on('notification', (n) => {
    if (n.payload === jobId) for (const l of listeners) l();
  });
  return {
    held: () => !lost,
    onRunEnded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    release: async () => {
      // Ending the session releases the lock.
      await client.end().catch(() => undefined);
    },
  };
}
