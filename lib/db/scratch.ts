import pg from 'pg';
import { applyMigrations } from './migrate';

/**
 * A migrated database of its own on the server `serverUrl` points at, for work that replaces
 * whole tables (import tests, the scale bench) and so must not touch the shared graph.
 */
export async function createMigratedDatabase(serverUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = withDatabase(serverUrl, 'postgres');
  await adminQuery(admin, `create database "${name}"`);
  const url = withDatabase(serverUrl, name);
  await applyMigrations(url);
  return { url, drop: () => adminQuery(admin, `drop database if exists "${name}" with (force)`) };
}

/** The same server and options, another database. */
function withDatabase(url: string, database: string): string {
  return url.replace(/\/[^/?]+(\?|$)/, `/${database}$1`);
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
