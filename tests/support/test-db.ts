import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startEmbeddedPostgres } from '../../lib/db/embedded';
import { createMigratedDatabase } from '../../lib/db/scratch';

/** The test server: a real PostgreSQL, separate from the development one. */
export const TEST_PG_PORT = Number(process.env.HOPSCOPE_TEST_PG_PORT ?? 54339);
export const TEST_PG_DIR = path.resolve('.data', 'pg-test');
export const TEST_DATABASE = 'hopscope_test';

export function testServer() {
  return startEmbeddedPostgres({ dir: TEST_PG_DIR, port: TEST_PG_PORT, database: TEST_DATABASE });
}

/**
 * A fresh, migrated database of its own, for tests that replace whole tables
 * (imports) and so must not share the KG the other tests read.
 */
export async function createScratchDatabase(prefix = 'scratch'): Promise<{ url: string; drop(): Promise<void> }> {
  const server = await testServer();
  return createMigratedDatabase(server.url, `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
}
