import type pg from 'pg';
import { getPool } from '@/lib/db/client';

/** The threshold each pooled connection was last set to (the pool reuses its client objects). */
const thresholdOf = new WeakMap<pg.PoolClient, number>();

/**
 * Runs `run` on a connection whose pg_trgm similarity_threshold is `threshold`.
 * The GIN trigram index prunes by that threshold when answering `%`: at the
 * default 0.3 a common word such as "pressure" rechecks thousands of rows
 * (20–45 ms), at 0.5 a few dozen (1–4 ms). The setting is the connection's
 * and is made only when it differs from what that connection was last set to,
 * so a lookup is usually one statement; every query that uses `%` goes through
 * here and so never meets a threshold it did not ask for.
 */
export async function withTrigramThreshold<T>(threshold: number, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await getPool().connect();
  try {
    if (thresholdOf.get(client) !== threshold) {
      thresholdOf.delete(client);
      await client.query(`select set_config('pg_trgm.similarity_threshold', $1, false)`, [String(threshold)]);
      thresholdOf.set(client, threshold);
    }
    return await run(client);
  } finally {
    client.release();
  }
}
