import pg from 'pg';
import { databaseUrl } from '@/lib/db/client';

export interface JobLock {
  /** False once the connection holding the lock has dropped: the driver must stop. */
  held(): boolean;
  release(): Promise<void>;
}

/**
 * One driver per job across every process and machine: a Postgres session
 * advisory lock on a connection of its own. A driver that dies drops its
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
    const { rows } = await client.query<{ locked: boolean }>(`select pg_try_advisory_lock(hashtext('hopscope-eval-job'), hashtext($1)) locked`, [jobId]);
    if (!rows[0].locked) {
      await client.end();
      return null;
    }
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return {
    held: () => !lost,
    release: async () => {
      // Ending the session releases the lock.
      await client.end().catch(() => undefined);
    },
  };
}
