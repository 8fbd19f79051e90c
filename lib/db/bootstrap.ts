import path from 'node:path';
import { readEnv, PROJECT_ROOT, type HopscopeEnv } from '../config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded';
import { applyMigrations } from './migrate';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  appliedMigrations: string[];
  stop(): Promise<void>;
}

/**
 * Gives a migrated database: DATABASE_URL when set, else an embedded PostgreSQL
 * under .data/ (git-ignored). Sets DATABASE_URL for the rest of the process.
 */
export async function ensureDatabase(
  env: HopscopeEnv = readEnv(),
  opts: { database?: string; dir?: string } = {},
): Promise<DatabaseHandle> {
  let server: EmbeddedDatabase | null = null;
  let url = env.DATABASE_URL;
  if (!url) {
    server = await startEmbeddedPostgres({
      dir: opts.dir ?? env.HOPSCOPE_PG_DIR ?? path.join(PROJECT_ROOT, '.data', 'pg'),
      port: env.HOPSCOPE_PG_PORT,
      database: opts.database ?? 'hopscope',
    });
    url = server.url;
  }
  process.env.DATABASE_URL = url;
  const appliedMigrations = await applyMigrations(url);
  return { url, embedded: !!server, appliedMigrations, stop: () => server?.stop() ?? Promise.resolve() };
}
