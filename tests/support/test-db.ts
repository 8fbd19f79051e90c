import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';

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
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = server.url.replace(/\/[^/]+$/, '/postgres');
  await adminQuery(admin, `create database "${name}"`);
  const url = server.url.replace(/\/[^/]+$/, `/${name}`);
  await applyMigrations(url);
  return { url, drop: () => adminQuery(admin, `drop database if exists "${name}" with (force)`) };
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
