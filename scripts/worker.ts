// `npm run worker`: run and evaluation workers without the web server. Any
// number of these, on this machine or others, share the PostgreSQL queue
// (DATABASE_URL; without it, the embedded server `npm start` runs, or a new one).
import { ensureDatabase } from '../lib/db/bootstrap';
import { readEnv } from '../lib/config';
import { startWorkers } from '../lib/runs/worker';
import { exitWithLauncher } from '../lib/launcher-watch';

async function main() {
  const env = readEnv();
  // Started by the launcher (scripts/start.ts): never outlive it.
  if (process.env.HOPSCOPE_LAUNCHER_PID) exitWithLauncher(Number(process.env.HOPSCOPE_LAUNCHER_PID));
  const db = await ensureDatabase(env);
  const workers = await startWorkers({ concurrency: env.HOPSCOPE_WORKER_CONCURRENCY, log: true });
  console.log(`[worker ${process.pid}] ready: ${env.HOPSCOPE_WORKER_CONCURRENCY} run consumer(s) and the evaluation supervisor`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await workers.stop();
    await db.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((e) => {
  console.error(`[worker] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
