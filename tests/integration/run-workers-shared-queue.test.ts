import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { readTrace } from '@/lib/trace/store';

/**
 * Two `npm run worker` processes on one database: every run on the shared
 * queue is executed by exactly one of them, once. Each worker logs the runs it
 * executed; the trace must show one attempt and no step twice.
 */
const RUNS = 10;
const workers: { child: ChildProcess; log: string }[] = [];

function startWorker() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: { ...process.env, HOPSCOPE_WORKER_CONCURRENCY: '2' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker = { child, log: '' };
  child.stdout!.on('data', (d) => (worker.log += d));
  child.stderr!.on('data', (d) => (worker.log += d));
  workers.push(worker);
  return worker;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; worker logs:\n${workers.map((w) => w.log).join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  // A queue of their own: other test files' workers share the database, and runs they took would be executed by neither worker here.
  process.env.HOPSCOPE_RUN_QUEUE = `hopscope-runs-shared-${process.pid}`;
  startWorker();
  startWorker();
  await until('both workers to be ready', () => workers.every((w) => w.log.includes('ready')));
});

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once('exit', r)))));
  await stopQueue();
  await closeDb();
  delete process.env.HOPSCOPE_RUN_QUEUE;
});

describe('several worker processes on one queue', () => {
  it('execute each run exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { id } = await createRun({
        method: i % 2 ? 'kg-rag' : 'direct',
        question: `Which genes are associated with multiple sclerosis? (${i})`,
        backend: 'offline',
      });
      ids.push(id);
    }
    const rows = await until('every run to finish', async () => {
      const { rows } = await getPool().query<{ id: string; status: string; attempts: number }>(`select id, status, attempts from runs where id = any($1)`, [
        ids,
      ]);
      return rows.every((r) => r.status === 'succeeded' || r.status === 'failed') ? rows : null;
    });
    for (const run of rows) {
      expect(run.status).toBe('succeeded');
      expect(run.attempts).toBe(1);
    }
    // No run is in both workers' logs, and both took a share. (Other test files' in-process
    // workers consume the same queue in the shared test database, so a run may be in neither log;
    // one attempt per run and no step twice, below, say it ran once wherever it ran.)
    const executedBy = ids.map((id) => workers.filter((w) => w.log.includes(`[runs] ${id} succeeded`)).length);
    expect(executedBy.every((n) => n <= 1)).toBe(true);
    for (const w of workers) expect(ids.some((id) => w.log.includes(`[runs] ${id} succeeded`))).toBe(true);
    // No step ran twice: one step per replay key (read through the trace repository: a finished run's step inputs are in its pack).
    for (const id of ids) {
      const keys = (await readTrace(id)).steps.map((s) => (s.input as { __key?: string }).__key);
      expect(keys.every((k) => typeof k === 'string')).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
    }
  }, 150_000);
});
