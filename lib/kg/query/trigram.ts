import type pg from 'pg';
import { getPool } from '@/lib/db/client';

/**
 * Runs `run` in a transaction whose pg_trgm similarity_threshold is `threshold`.
 * The GIN trigram index prunes by that threshold when answering `%`: at the
 * default 0.3 a common word such as "pressure" rechecks thousands of rows
 * (20–45 ms), at 0.5 a few dozen (1–4 ms). Transaction-local, so pooled
 * connections keep the default.
 */
export async function withTrigramThreshold<T>(threshold: number, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await getPool().connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('pg_trgm.similarity_threshold', $1, true)`, [String(threshold)]);
    const result = await run(client);
    await client.query('commit');
    return result;
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
