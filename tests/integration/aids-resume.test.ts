import { afterAll, describe, expect, it } from 'vitest';
import { FULL_SWITCHES } from '@/lib/channels';
import { closeDb } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';
import { createRun } from '@/lib/runs/service';
import { resumeAfterCrashIn } from '../support/runs';

afterAll(closeDb);

const QUESTION = 'Which disease is treated by metformin and is associated with the gene PPARG?';

/** What a run declares of the aids: the list of those that acted, with their records, and the deviations naming them. */
function declared(run: RunRecord) {
  const extra = (run.answer as { extra?: { aids?: unknown; deviations?: unknown } } | null)?.extra;
  return { aids: extra?.aids, deviations: extra?.deviations };
}

// A resumed run gives back its completed stages from the trace without running them again, aid steps inside them
// included: the aids it declares must still be every aid its trace shows acting, as the uninterrupted run declared.
describe('a run resumed with the aids on declares the aids its earlier attempt used', () => {
  for (const [method, params] of [
    ['eigen1', { k: 2 }],
    ['xr2', {}],
    ['bioweave', {}],
  ] as const) {
    it(`${method}: cut short at its last step, resumed, declares the same aids and deviations`, async () => {
      const { id } = await createRun(
        { method, question: QUESTION, backend: 'offline', params, switches: { ...FULL_SWITCHES, aids: true } },
        { enqueue: false },
      );
      await executeRun(id);
      const run = await getRunRecord({ id });
      expect(run.status).toBe('succeeded');
      const before = declared(run);
      const acted = (before.aids as { aid: string }[]).map((a) => a.aid);
      expect(acted.length).toBeGreaterThan(0);
      // Every aid the trace shows acting is declared.
      expect(new Set(acted)).toEqual(new Set(run.steps.filter((s) => s.kind === 'channel.aids').map((s) => (s.input as { aid: string }).aid)));

      // A crash while the last step was written: left running, the run queued again by recovery.
      const last = run.steps.reduce((a, b) => (b.ordinal > a.ordinal ? b : a));
      const resumed = await resumeAfterCrashIn(id, last.id);
      expect(declared(resumed)).toEqual(before);
    });
  }
});
