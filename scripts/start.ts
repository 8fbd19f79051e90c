// The launcher behind `npm start`, `npm run dev` and `npm run start:test`:
// database (embedded unless DATABASE_URL), migrations, knowledge base, build, run
// workers (a supervised process of their own unless HOPSCOPE_WORKERS=inline|off), then the Next.js server. One process owns the embedded PostgreSQL
// and keeps it up, and owns its server child: no orphan survives it, and a restart never meets its own
// previous server on the port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDatabase } from '../lib/db/bootstrap';
import { authConfigured, readEnv, resolveDataDir } from '../lib/config';
import { describeKnowledge, loadDefaultKnowledge } from '../lib/kg/import';
import { ensureBuild } from './next-build';
import { longLivedEnv, superviseChild, type Supervised } from '../lib/supervise';

type Mode = 'production' | 'dev' | 'test';

function parseMode(argv: string[]): Mode {
  if (argv.includes('--dev')) return 'dev';
  if (argv.includes('--test')) return 'test';
  return 'production';
}

function ensurePrismaClient() {
  if (fs.existsSync(path.resolve('lib', 'db', 'generated', 'client.ts'))) return;
  const result = spawnSync('npm', ['run', 'generate'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('prisma generate failed');
}

async function main() {
  const mode = parseMode(process.argv.slice(2));
  if (mode === 'test') {
    // The browser tests run against the test database (see tests/support/test-db.ts): its port even where
    // HOPSCOPE_PG_PORT names the development database's, which the specs' own CLI calls do not use.
    process.env.HOPSCOPE_PG_PORT = process.env.HOPSCOPE_TEST_PG_PORT ?? '54339';
    process.env.HOPSCOPE_PG_DIR ??= path.resolve('.data', 'pg-test');
    process.env.PORT = process.env.HOPSCOPE_E2E_PORT ?? '3100';
  }
  const env = readEnv();
  ensurePrismaClient();
  const db = await ensureDatabase(env, { database: mode === 'test' ? 'hopscope_test' : 'hopscope' });
  console.log(`[hopscope] database ready${db.embedded ? ' (embedded PostgreSQL)' : ''}`);
  await loadDefaultKnowledge({ dataDir: resolveDataDir(env), log: (line) => console.log(`[hopscope] ${line}`) });
  console.log(`[hopscope] knowledge base: ${await describeKnowledge()}`);
  await db.disconnect();

  if (mode !== 'dev') ensureBuild();
  // Run workers and evaluation drivers: in a process of their own (the default), so runs never hold up the web
  // server's reads; in this process (inline); or not at all (off: runs wait for `npm run worker` processes).
  const workers =
    env.HOPSCOPE_WORKERS === 'on'
      ? superviseWorkers()
      : env.HOPSCOPE_WORKERS === 'inline'
        ? await (await import('../lib/runs/worker')).startWorkers({ concurrency: env.HOPSCOPE_WORKER_CONCURRENCY })
        : null;
  if (!workers) console.log('[hopscope] workers off (HOPSCOPE_WORKERS=off): runs wait for `npm run worker` processes');

  const host = listenHost(env);
  // Built: scripts/web.ts, Next.js behind the kept reads of finished runs (lib/runs/kept-reads.ts); dev: `next dev`.
  const serverArgs =
    mode === 'dev'
      ? [path.resolve('node_modules', 'next', 'dist', 'bin', 'next'), 'dev', '-p', String(env.PORT), '-H', host]
      : [path.resolve('scripts', 'run.mjs'), 'web', '-p', String(env.PORT), '-H', host];
  await clearPreviousServer(env.PORT);
  // The server child is node itself (no npx in between), so signals reach it; it exits when the launcher dies (instrumentation.ts).
  const server: ChildProcess = spawn(process.execPath, serverArgs, {
    stdio: 'inherit',
    env: longLivedEnv(process.env, { NEXT_TELEMETRY_DISABLED: '1', HOPSCOPE_LAUNCHER_PID: String(process.pid) }),
  });
  fs.writeFileSync(serverPidFile(env.PORT), String(server.pid));
  console.log(`[hopscope] serving on http://${host}:${env.PORT}`);
  db.supervise((line) => console.log(`[hopscope] ${line}`));

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    server.kill('SIGTERM');
    await workers?.stop();
    await db.stop();
    fs.rmSync(serverPidFile(env.PORT), { force: true });
    process.exit(code);
  };
  server.on('exit', (code) => void shutdown(code ?? 0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // Whatever ends this process ends its server child too.
  process.on('exit', () => server.kill('SIGTERM'));
}

/** The run workers as a child process (`npm run worker`'s program: built, or from source), restarted when it dies. */
function superviseWorkers(): Supervised {
  // It finds the database through DATABASE_URL (set by ensureDatabase), and exits with the launcher.
  return superviseChild({
    name: 'worker process',
    args: [path.resolve('scripts', 'run.mjs'), 'worker'],
    env: longLivedEnv(process.env, { HOPSCOPE_LAUNCHER_PID: String(process.pid) }),
  });
}

/** Where the launcher of this port records its server child's pid. */
function serverPidFile(port: number): string {
  fs.mkdirSync(path.resolve('.data'), { recursive: true });
  return path.resolve('.data', `server-${port}.pid`);
}

/**
 * A previous launcher that was killed outright may have left its server child
 * for a moment (it exits within a second of noticing): stop it and wait for
 * the port, instead of failing with EADDRINUSE.
 */
async function clearPreviousServer(port: number) {
  const file = serverPidFile(port);
  const pid = Number(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : NaN);
  if (Number.isInteger(pid) && pid > 0 && isOurServer(pid)) {
    console.log(`[hopscope] stopping the server a previous launcher left (pid ${pid})`);
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  for (let waited = 0; await portInUse(port); waited += 200) {
    if (waited >= 10_000) throw new Error(`port ${port} is in use by another program: stop it or set PORT`);
    if (waited === 5_000 && Number.isInteger(pid) && isOurServer(pid)) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
  }
}

function isOurServer(pid: number): boolean {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.some((a) => a.includes('next')) || (args.some((a) => a.endsWith('run.mjs')) && args.includes('web'));
  } catch {
    return false;
  }
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Loopback unless told otherwise. Without sign-in anyone who can reach the
 * port could read and cancel every run, so another address needs sign-in
 * (AUTH_SECRET) or the explicit HOPSCOPE_ALLOW_UNAUTHENTICATED=1.
 */
function listenHost(env: ReturnType<typeof readEnv>): string {
  const host = env.HOPSCOPE_HOST;
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(host);
  if (authConfigured(env)) {
    console.log(`[hopscope] sign-in required (AUTH_SECRET); listening on ${host}`);
    return host;
  }
  if (!loopback && !env.HOPSCOPE_ALLOW_UNAUTHENTICATED) {
    throw new Error(
      `HOPSCOPE_HOST=${host} without sign-in: set AUTH_SECRET to require sign-in, or HOPSCOPE_ALLOW_UNAUTHENTICATED=1 to serve everyone who can reach ${host} without it`,
    );
  }
  console.log(
    loopback
      ? `[hopscope] no sign-in configured: listening on loopback (${host}) only`
      : `[hopscope] WARNING: serving ${host} without sign-in (HOPSCOPE_ALLOW_UNAUTHENTICATED=1)`,
  );
  return host;
}

main().catch((e) => {
  console.error(`[hopscope] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
