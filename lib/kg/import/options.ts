import type pg from 'pg';
import { getPool } from '../../db/client';
import type { ProgressListener } from './progress';

/** Shared by every importer: tests pass a pool on a scratch database; the CLI listens for progress. */
export interface ImportOptions {
  pool?: pg.Pool;
  onProgress?: ProgressListener;
}

export function poolOf(opts: ImportOptions): pg.Pool {
  return opts.pool ?? getPool();
}

/** Runs `work` in one transaction on one connection: committed whole or rolled back whole. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (e) {
    // A connection that cannot even roll back is discarded rather than returned to the pool.
    await client.query('rollback').catch((r: Error) => (broken = r));
    throw e;
  } finally {
    client.release(broken);
  }
}
