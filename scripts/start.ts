// The launcher behind `npm start`, `npm run dev` and `npm run start:test`:
// database (embedded unless DATABASE_URL), migrations, knowledge base, build, run
// workers (unless HOPSCOPE_WORKERS=off), then the Next.js server. One process owns the embedded PostgreSQL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDatabase } from '../lib/db/bootstrap';
import { readEnv, resolveDataDir } from '../lib/config';
import { loadDefaultKnowledge } from '../lib/kg/import';
import { closeDb } from '../lib/db/client';
import { ensureBuild } from './next-build';

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
    // The browser tests run against the test database (see tests/support/test-db.ts).
    process.env.HOPSCOPE_PG_PORT ??= process.env.HOPSCOPE_TEST_PG_PORT ?? '54339';
    process.env.HOPSCOPE_PG_DIR ??= path.resolve('.data', 'pg-test');
    process.env.PORT = process.env.HOPSCOPE_E2E_PORT ?? '3100';
  }
  const env = readEnv();
  ensurePrismaClient();
  const db = await ensureDatabase(env, { database: mode === 'test' ? 'hopscope_test' : 'hopscope' });
  console.log(`[hopscope] database ready${db.embedded ? ' (embedded PostgreSQL)' : ''}`);
  const knowledge = await loadDefaultKnowledge({ dataDir: resolveDataDir(env), log: (line) => console.log(`[hopscope] ${line}`) });
  console.log(`[hopscope] knowledge base: ${knowledge.description}`);
  await closeDb();

  if (mode !== 'dev') ensureBuild();
  // Run workers and evaluation drivers, unless they run as processes of their own (`npm run worker`).
  const workers = env.HOPSCOPE_WORKERS === 'on'
    ? await (await import('../lib/runs/worker')).startWorkers({ concurrency: env.HOPSCOPE_WORKER_CONCURRENCY })
    : null;
  if (!workers) console.log('[hopscope] workers off (HOPSCOPE_WORKERS=off): runs wait for `npm run worker` processes');

  const nextArgs = mode === 'dev' ? ['next', 'dev', '-p', String(env.PORT)] : ['next', 'start', '-p', String(env.PORT), '-H', '127.0.0.1'];
  const server = spawn('npx', nextArgs, { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  console.log(`[hopscope] serving on http://127.0.0.1:${env.PORT}`);

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    server.kill('SIGTERM');
    await workers?.stop();
    await closeDb();
    await db.stop();
    process.exit(code);
  };
  server.on('exit', (code) => void shutdown(code ?? 0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
}

main().catch((e) => {
  console.error(`[hopscope] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
