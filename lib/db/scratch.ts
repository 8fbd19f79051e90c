import pg from 'pg';
import { closeDb, databaseUrl } from './client';
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

/** A migrated database of its own (named `<prefix>_<time>`) on the same server; this process uses it until `drop`. */
export async function switchToScratchDatabase(prefix: string): Promise<{ drop(): Promise<void> }> {
  const original = databaseUrl();
  const scratch = await createMigratedDatabase(original, `${prefix}_${Date.now()}`);
  await closeDb();
  process.env.DATABASE_URL = scratch.url;
  return {
    async drop() {
      await closeDb();
      process.env.DATABASE_URL = original;
      await scratch.drop();
    },
  };
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
