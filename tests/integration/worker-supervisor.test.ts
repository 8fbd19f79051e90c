import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import { getRunRecord } from '@/lib/runs/read';
import { stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { superviseChild, type Supervised } from '@/lib/supervise';

/**
 * `npm start` runs the workers in a process of their own under the launcher's
 * supervisor (lib/supervise.ts): runs submitted here are executed by that
 * process (this one starts no worker on the queue), and a worker process that
 * dies is replaced by a new one that executes the next runs.
 */
let workers: Supervised;

async function until<T>(what: string, probe: () => Promise<T | null | false> | T | null | false, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function runExecuted(question: string) {
  const { id } = await createRun({ method: 'direct', question, backend: 'offline' });
  return until(`run ${id} to be executed by the worker process`, async () => {
    const run = await getRunRecord({ id });
    return run.status === 'succeeded' && run;
  });
}

beforeAll(() => {
  // A queue of its own: no other test file's in-process workers take these runs.
  process.env.HOPSCOPE_RUN_QUEUE = `hopscope-runs-supervised-${process.pid}`;
  workers = superviseChild({
    name: 'worker process',
    args: ['scripts/run.mjs', 'worker'],
    env: { ...process.env, HOPSCOPE_WORKER_CONCURRENCY: '1', HOPSCOPE_LAUNCHER_PID: String(process.pid) },
    log: () => undefined,
  });
});

afterAll(async () => {
  await workers.stop();
  await stopQueue();
  await closeDb();
  delete process.env.HOPSCOPE_RUN_QUEUE;
});

describe('the launcher’s worker process', () => {
  it('executes the runs, and is restarted when it dies; the new process executes the next run', async () => {
    const first = workers.pid();
    expect(first).not.toBeNull();
    expect(first).not.toBe(process.pid);
    await runExecuted('Which genes are associated with asthma?');

    process.kill(first!, 'SIGKILL');
    const second = await until('a new worker process', () => {
      const pid = workers.pid();
      return pid !== null && pid !== first && pid;
    });
    expect(second).not.toBe(process.pid);
    await runExecuted('Which drugs treat gout?');

    await workers.stop();
    expect(workers.pid()).toBeNull();
  });
});
