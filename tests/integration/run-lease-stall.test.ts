import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { enqueueRun, stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { recoverInterruptedRuns } from '@/lib/runs/worker';
import { getRunView } from '@/lib/runs/view';
import { recallTemplate } from '@/lib/llm/templates/generic';
import { reply, scriptedServerForSuite } from '../support/scripted-openai-server';

/**
 * Leases that survive stalls, and work that goes only where it can run. Two
 * worker processes share a queue: one configured with the model endpoint, one
 * without. A model run is never claimed by the worker without its endpoint
 * (it says what it waits for); its own worker, stopped (SIGSTOP) for 30 s in
 * the middle of the run, keeps it (a model run's lease outlasts a minute's
 * stall) and finishes it after SIGCONT, never failed. A worker whose run was
 * taken over while it was stopped writes nothing more once it resumes.
 */

const answer = JSON.stringify({
  answer: 'Type 2 diabetes mellitus',
  optionKey: null,
  items: [],
  count: null,
  abstain: false,
  rationale: 'scripted',
  claims: [],
});
// The first call of a run (recall) answers after 3 s: the test stops the worker while it waits.
const scripted = scriptedServerForSuite((request) => {
  const [system] = request.body.messages as { content: string }[];
  return system?.content === recallTemplate.system ? reply.ok(JSON.stringify({ claims: [] }), { delayMs: 3_000 }) : reply.ok(answer);
});

interface Worker {
  name: string;
  child: ChildProcess;
  log: string;
}
const workers: Worker[] = [];

function startWorker(name: string, withEndpoint: boolean): Worker {
  const env: NodeJS.ProcessEnv = { ...process.env, HOPSCOPE_WORKER_CONCURRENCY: '1' };
  if (!withEndpoint) for (const k of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'HOPSCOPE_MODEL', 'HOPSCOPE_EMBEDDING_MODEL']) delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const worker = { name, child, log: '' };
  child.stdout!.on('data', (d) => (worker.log += d));
  child.stderr!.on('data', (d) => (worker.log += d));
  workers.push(worker);
  return worker;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; worker logs:\n${workers.map((w) => `${w.name}:\n${w.log}`).join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runRow = async (id: string) =>
  (await getPool().query<{ status: string; attempts: number; error: string | null }>('select status, attempts, error from runs where id = $1', [id])).rows[0]!;
const written = async (id: string) =>
  (
    await getPool().query<{ n: number }>(
      'select (select count(*) from steps where run_id = $1)::int + (select count(*) from model_calls where run_id = $1)::int n',
      [id],
    )
  ).rows[0]!.n;

let withModel: Worker;
let offlineOnly: Worker;

beforeAll(async () => {
  // A queue family of their own: other files' workers share the database.
  process.env.HOPSCOPE_RUN_QUEUE = `hopscope-runs-lease-${process.pid}`;
  withModel = startWorker('with endpoint', true);
  offlineOnly = startWorker('without endpoint', false);
  await until('both workers to be ready', () => workers.every((w) => w.log.includes('ready')));
});

afterAll(async () => {
  for (const w of workers) {
    w.child.kill('SIGCONT');
    w.child.kill('SIGTERM');
  }
  await Promise.all(workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once('exit', r)))));
  await stopQueue();
  await closeDb();
  delete process.env.HOPSCOPE_RUN_QUEUE;
});

/** Starts a model run and returns once its worker has sent the first model request. */
async function startModelRun(tag: string): Promise<string> {
  const before = scripted.server.requests.length;
  const { id } = await createRun({ method: 'kg-rag', backend: 'openai', question: `Which diseases does metformin treat? (${tag})` });
  await until('the first model request', () => scripted.server.requests.length > before);
  return id;
}

describe('a model run and its worker', () => {
  it('is never claimed by a process without its endpoint: it stays queued, saying what it waits for', async () => {
    const saved = process.env.OPENAI_BASE_URL;
    const { id } = await createRun({ method: 'kg-rag', backend: 'openai', question: 'Which diseases does metformin treat? (waiting)' }, { enqueue: false });
    delete process.env.OPENAI_BASE_URL;
    try {
      expect(await executeRun(id)).toBeNull();
    } finally {
      process.env.OPENAI_BASE_URL = saved;
    }
    expect((await runRow(id)).status).toBe('queued');
    const view = await getRunView({ id });
    expect(view.waitingFor).toBe(`a worker with endpoint ${scripted.server.baseUrl} and model ${process.env.HOPSCOPE_MODEL}`);
    await getPool().query(`update runs set status = 'cancelled' where id = $1`, [id]);
  });

  it('survives a 30 s stop of its worker and finishes with its own endpoint, never failed', async () => {
    const id = await startModelRun('stall');
    expect((await runRow(id)).status).toBe('running');
    withModel.child.kill('SIGSTOP');
    try {
      await sleep(30_000);
      // The other worker swept all along: the run is still the stopped worker's.
      expect(await runRow(id)).toMatchObject({ status: 'running', attempts: 1 });
    } finally {
      withModel.child.kill('SIGCONT');
    }
    const done = await until('the run to end', async () => {
      const row = await runRow(id);
      return row.status !== 'running' && row.status !== 'queued' ? row : null;
    });
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1, error: null });
    // The run's end is stored by the seal's statement before the worker logs it: its log line follows on its stdout.
    await until('the worker to log the run as succeeded', () => withModel.log.includes(`[runs] ${id} succeeded`), 10_000);
    expect(offlineOnly.log).not.toContain(id);
  }, 180_000);

  it('writes nothing more once it finds its lease gone, and the run finishes on a worker with its endpoint', async () => {
    const id = await startModelRun('taken');
    withModel.child.kill('SIGSTOP');
    let before: number;
    try {
      // Taken over while stopped (as the sweep does once a lease runs out), and held back from being claimed again for now
      // (a backend nobody serves), so whatever is written next could only be the stale attempt's.
      expect((await recoverInterruptedRuns([id])).resumed).toEqual([id]);
      await getPool().query(`update runs set backend_key = 'openai held-back' where id = $1`, [id]);
      before = await written(id);
    } finally {
      withModel.child.kill('SIGCONT');
    }
    // The stale attempt (1) gets its model answer and goes to write it: refused, it stops, having written nothing.
    await until('the stopped attempt to find its lease gone', () => withModel.log.includes(`[runs] ${id}: lease lost`));
    await sleep(1_000);
    expect(await written(id)).toBe(before);
    // Released: claimed again (attempt 2), only by the worker with the endpoint, and finished.
    await getPool().query(`update runs set backend_key = $2 where id = $1`, [id, `openai ${scripted.server.baseUrl} ${process.env.HOPSCOPE_MODEL}`]);
    await enqueueRun(id);
    const done = await until('the run to end', async () => {
      const row = await runRow(id);
      return row.status === 'succeeded' || row.status === 'failed' ? row : null;
    });
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, error: null });
    expect(offlineOnly.log).not.toContain(id);
    const { rows } = await getPool().query<{ ordinal: number }>('select ordinal from steps where run_id = $1 order by ordinal', [id]);
    expect(rows.map((r) => r.ordinal)).toEqual(rows.map((_, i) => i));
  }, 180_000);
});
