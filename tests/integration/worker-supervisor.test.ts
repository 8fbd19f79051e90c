import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import { getRunRecord } from '@/lib/runs/read';
import { stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { readFileSync } from 'node:fs';
import { longLivedEnv, superviseChild, type Supervised } from '@/lib/supervise';

/**
 * `npm start` runs the workers in a process of their own under the launcher's
 * supervisor (lib/supervise.ts): runs submitted here are executed by that
 * process (this one starts no worker on the queue), and a worker process that
 * dies is replaced by a new one that executes the next runs. It runs in the
 * launcher's environment for long-lived children (glibc malloc kept to two arenas).
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
    env: longLivedEnv({ ...process.env, MALLOC_ARENA_MAX: undefined }, { HOPSCOPE_WORKER_CONCURRENCY: '1', HOPSCOPE_LAUNCHER_PID: String(process.pid) }),
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

  it.runIf(process.platform === 'linux')('runs with glibc malloc kept to two arenas, and with the arenas the environment asks for', () => {
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const child = superviseChild({
      name: 'idle child',
      args: ['-e', 'setInterval(() => {}, 1000)'],
      env: longLivedEnv({ ...process.env, MALLOC_ARENA_MAX: undefined }),
      log: () => undefined,
    });
    const own = superviseChild({
      name: 'idle child',
      args: ['-e', 'setInterval(() => {}, 1000)'],
      env: longLivedEnv({ ...process.env, MALLOC_ARENA_MAX: '4' }),
      log: () => undefined,
    });
    try {
      expect(environ(child.pid()!)).toContain('MALLOC_ARENA_MAX=2');
      expect(environ(own.pid()!)).toContain('MALLOC_ARENA_MAX=4');
    } finally {
      void child.stop();
      void own.stop();
    }
  });
});
