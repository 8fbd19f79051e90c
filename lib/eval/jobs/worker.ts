import { errorMessage } from '@/lib/base/errors';
import { driveEvalJob } from './driver';
import { unfinishedJobIds } from './store';

export interface EvalWorkers {
  stop(): Promise<void>;
}

/**
 * The server's evaluation supervisor: it looks for unfinished jobs and drives
 * up to `maxJobs` of them at once, sending their runs to the shared run queue.
 * Any number of processes may run one: the job lock gives each job one driver,
 * and a job whose driver died is taken over (and resumed) on the next look.
 */
export function startEvalWorkers({ maxJobs = 2, pollMs = 2_000 } = {}): EvalWorkers {
  const drivers = new Map<string, Promise<void>>();
  const stopping = new AbortController();

  async function look() {
    if (stopping.signal.aborted || drivers.size >= maxJobs) return;
    for (const id of await unfinishedJobIds()) {
      if (drivers.size >= maxJobs) break;
      if (drivers.has(id)) continue;
      const driving = driveEvalJob(id, { mode: 'queue', signal: stopping.signal })
        .then(
          () => undefined,
          (e) => console.error(`[eval] job ${id}: ${errorMessage(e)}`),
        )
        .finally(() => drivers.delete(id));
      drivers.set(id, driving);
    }
  }

  const timer = setInterval(() => void look().catch((e) => console.error(`[eval] ${errorMessage(e)}`)), pollMs);
  void look().catch((e) => console.error(`[eval] ${errorMessage(e)}`));
  return {
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await Promise.allSettled(drivers.values());
    },
  };
}
