import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPool } from '@/lib/db/client';
import { databaseUrl } from '@/lib/db/url';
import { runQueue, stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';

/**
 * A fresh instance's first submissions arrive together while its worker process creates the same run
 * queue: pg-boss's queue creation can deadlock between them, which answered a submission 500.
 */
let other: PgBoss;

beforeAll(async () => {
  process.env.HOPSCOPE_RUN_QUEUE = `hopscope-runs-create-${process.pid}-${Date.now()}`;
  other = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss', max: 2 });
  await other.start();
});

afterAll(async () => {
  await other.stop({ graceful: false });
  await stopQueue();
  delete process.env.HOPSCOPE_RUN_QUEUE;
});

describe('the run queue of a fresh instance', () => {
  it('takes every one of many submissions sent together while another process creates the same queue', async () => {
    const submissions = Array.from({ length: 12 }, (_, i) => createRun({ method: 'direct', question: `Which drugs treat gout? (${i})`, backend: 'offline' }));
    const results = await Promise.allSettled([other.createQueue(runQueue()), ...submissions]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const { rows } = await getPool().query('select count(*)::int n from pgboss.job where name = $1', [runQueue()]);
    expect(rows[0].n).toBe(12);
  });
});
