import type pg from 'pg';
import { getPool } from '@/lib/db/client';

/**
 * The bulk path's connection (docs/architecture.md): graph, profile and document
 * imports stream `COPY` on one raw pg connection, in one transaction.
 */

/** The pool an import writes to: the one given (tests pass a scratch database's) or the process's. */
export function poolOf(opts: { pool?: pg.Pool }): pg.Pool {
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
