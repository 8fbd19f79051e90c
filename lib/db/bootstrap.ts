import path from 'node:path';
import { readEnv, PROJECT_ROOT, type HopscopeEnv } from '../config';
import { canConnect, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded';
import { applyMigrations } from './migrate';
import { closeDb } from './client';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  appliedMigrations: string[];
  /**
   * Keeps the embedded server up (the launcher calls it): checked every second,
   * restarted (with backoff) when it stopped answering. No-op with DATABASE_URL.
   */
  supervise(log: (line: string) => void): void;
  /** Closes this process's connections (new ones open when asked), leaving the server up: a launcher's, before it hands over to its children. */
  disconnect(): Promise<void>;
  /** Closes this process's connections, then stops the embedded server if this process started it. */
  stop(): Promise<void>;
}

const CHECK_MS = 1_000;

/**
 * Gives a migrated database: DATABASE_URL when set, else an embedded PostgreSQL
 * under .data/ (git-ignored). Sets DATABASE_URL for the rest of the process.
 */
export async function ensureDatabase(env: HopscopeEnv = readEnv(), opts: { database?: string; dir?: string } = {}): Promise<DatabaseHandle> {
  let server: EmbeddedDatabase | null = null;
  let url = env.DATABASE_URL;
  const embedded = {
    dir: opts.dir ?? env.HOPSCOPE_PG_DIR ?? path.join(PROJECT_ROOT, '.data', 'pg'),
    port: env.HOPSCOPE_PG_PORT,
    database: opts.database ?? 'hopscope',
  };
  if (!url) {
    server = await startEmbeddedPostgres(embedded);
    url = server.url;
  }
  process.env.DATABASE_URL = url;
  const appliedMigrations = await applyMigrations(url);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function watch(log: (line: string) => void, failures = 0): Promise<void> {
    if (stopped || !server) return;
    const up = await canConnect(url!);
    if (up || failures < 1) {
      if (!up) log('the database did not answer; checking again');
      timer = setTimeout(() => void watch(log, up ? 0 : failures + 1), CHECK_MS);
      return;
    }
    log('the embedded PostgreSQL stopped; restarting it');
    for (let delay = 500; !stopped; delay = Math.min(delay * 2, 5_000)) {
      try {
        server = await startEmbeddedPostgres(embedded);
        log('the embedded PostgreSQL is back; runs it interrupted resume on their own');
        break;
      } catch (e) {
        log(`restarting the embedded PostgreSQL failed (${e instanceof Error ? e.message : String(e) || 'it exited'}); retrying in ${delay / 1000} s`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    timer = setTimeout(() => void watch(log), CHECK_MS);
  }

  return {
    url,
    embedded: !!server,
    appliedMigrations,
    supervise: (log) => void watch(log),
    disconnect: closeDb,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await closeDb();
      if ((await server?.stop()) === 'left running') console.error('[db] the embedded PostgreSQL stays up: another process is still connected to it');
    },
  };
}
