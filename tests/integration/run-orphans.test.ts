import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { enqueueRun, getBoss, stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { takeOrphanedRuns } from '@/lib/runs/store/lease';
import { deleteRuns } from '@/lib/runs/store/runs';

/**
 * A queued run whose queue job is missing is sent again by the recovery sweep, once: sweeps of
 * several worker processes (or two of one process, when a sweep outlasts its interval on a busy
 * machine) each sent every such run again, and the soak's queue filled with copies of its runs.
 */

const ORPHAN_AFTER_MS = 10_000;
const ids: string[] = [];

// The sweep runs in a worker, which has started the queue (and pg-boss its tables) first.
beforeAll(async () => {
  await getBoss();
});

afterAll(async () => {
  await deleteRuns(ids);
  await stopQueue();
  await closeDb();
});

/** A run stored without its queue job, last touched a minute ago. */
async function orphan(): Promise<string> {
  const { id } = await createRun({ method: 'direct', question: 'Which drugs treat gout?', backend: 'offline' }, { enqueue: false });
  ids.push(id);
  await getPool().query(`update runs set updated_at = now() - interval '1 minute' where id = $1`, [id]);
  return id;
}

describe('queued runs without a queue job', () => {
  it('are taken by one of several sweeps at once, and not again until they have waited once more', async () => {
    const runs = [await orphan(), await orphan(), await orphan()];
    const takes = await Promise.all(Array.from({ length: 4 }, () => takeOrphanedRuns(ORPHAN_AFTER_MS, runs)));
    const taken = takes.flat().map((r) => r.id);
    expect(taken.sort()).toEqual([...runs].sort());
    expect(takes.flat().every((r) => r.key === 'offline')).toBe(true);
    // Touched when taken: a sweep right after finds nothing to send.
    expect(await takeOrphanedRuns(ORPHAN_AFTER_MS, runs)).toEqual([]);
    // Still waiting a while later (its job lost again): sent again.
    await getPool().query(`update runs set updated_at = now() - interval '1 minute' where id = any($1::text[])`, [runs]);
    expect((await takeOrphanedRuns(ORPHAN_AFTER_MS, runs)).map((r) => r.id).sort()).toEqual([...runs].sort());
  });

  it('are left alone while a job waits for them, or before they have waited long enough', async () => {
    const queued = await orphan();
    await enqueueRun(queued, 'offline');
    const fresh = (await createRun({ method: 'direct', question: 'Which drugs treat gout?', backend: 'offline' }, { enqueue: false })).id;
    ids.push(fresh);
    expect(await takeOrphanedRuns(ORPHAN_AFTER_MS, [queued, fresh])).toEqual([]);
  });
});
