import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listJobs, POST as startJob } from '@/app/api/eval/route';
import { GET as getJob } from '@/app/api/eval/[id]/route';
import { POST as cancelJob } from '@/app/api/eval/[id]/cancel/route';
import { GET as exportJob } from '@/app/api/eval/[id]/export/route';
import { GET as getShared } from '@/app/api/eval/share/[shareId]/route';
import { GET as getSharedMatrix } from '@/app/api/eval/share/[shareId]/matrix/route';
import { closeDb } from '@/lib/db/client';
import { generateQuestionSet } from '@/lib/eval/generate';
import { tryLockJob } from '@/lib/eval/jobs/store/lock';

/** The evaluation routes as a machine caller sees them: status codes, messages, shapes. */

afterAll(closeDb);

let setName: string;
beforeAll(async () => {
  setName = `eval-api-${randomUUID().slice(0, 8)}`;
  await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'eval-api', count: 3 });
});

const post = (body: unknown) => new Request('http://test/api/eval', { method: 'POST', body: JSON.stringify(body) });
const get = (path: string) => new Request(`http://test${path}`);
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

describe('the evaluation API', () => {
  it('answers 400 naming the problem: a bad configuration, an unknown method, no method, a bad parameter, a body that is not JSON', async () => {
    const badGrid = await startJob(post({ set: setName, methods: ['direct'], switches: 'full,graph=0', backend: 'offline' }));
    expect(badGrid.status).toBe(400);
    expect((await badGrid.json()).error).toMatch(/graph=0.*Unknown channel/);
    const badMethod = await startJob(post({ set: setName, methods: 'direct,gpt', backend: 'offline' }));
    expect(badMethod.status).toBe(400);
    expect((await badMethod.json()).error).toMatch(/methods are among/);
    const none = await startJob(post({ set: setName, methods: [], backend: 'offline' }));
    expect(none.status).toBe(400);
    const badParam = await startJob(post({ set: setName, methods: 'kg-rag', params: { 'kg-rag': { topK: 0 } }, backend: 'offline' }));
    expect(badParam.status).toBe(400);
    expect((await badParam.json()).error).toMatch(/params\.kg-rag\.topK/);
    const notJson = await startJob(new Request('http://test/api/eval', { method: 'POST', body: '{' }));
    expect(notJson.status).toBe(400);
  });

  it('answers 404 for an unknown set', async () => {
    const response = await startJob(post({ set: `no-such-set-${randomUUID()}`, methods: ['direct'] }));
    expect(response.status).toBe(404);
  });

  it('creates a job (201), shows it queued with its items pending, exports it, shares it without its id, and cancels it', async () => {
    const created = await startJob(
      post({ set: setName, methods: 'direct,kg-rag', switches: ['full', 'kg=0+param=0'], backend: 'offline', limit: 2, seed: 'x' }),
    );
    expect(created.status).toBe(201);
    const { id, shareId, total } = await created.json();
    expect(total).toBe(2 * 2 * 2);
    // Held here, so that no eval supervisor of a server sharing the test database starts the job under the test.
    const lock = (await tryLockJob(id))!;
    expect(lock).toBeTruthy();

    const view = await (await getJob(get(`/api/eval/${id}`), ctx({ id }))).json();
    expect(view).toMatchObject({ id, shareId, status: 'queued', methods: ['direct', 'kg-rag'], sample: { limit: 2, seed: 'x', setTotal: 3 } });
    expect(view.configs.map((c: { key: string }) => c.key)).toEqual(['full', 'kg=0+param=0']);
    expect(view.progress).toMatchObject({ total: 8, done: 0, pending: 8 });
    expect(view.summary.scores).toHaveLength(4);
    expect(view.summary.attribution).toBeNull();

    const listed = await (await listJobs(get('/api/eval?limit=200'))).json();
    expect(listed.items.some((j: { id: string }) => j.id === id)).toBe(true);

    const csv = await exportJob(get(`/api/eval/${id}/export?format=csv`), ctx({ id }));
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain(`evaluation-${id}-items.csv`);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(9);
    expect(lines.slice(1).every((l) => l.includes(',pending,'))).toBe(true);

    const shared = await (await getShared(get(`/api/eval/share/${shareId}`), ctx({ shareId }))).json();
    expect(shared.id).toBeNull();
    expect(shared.summary).toEqual(view.summary);
    const matrix = await (await getSharedMatrix(get(`/api/eval/share/${shareId}/matrix?limit=1`), ctx({ shareId }))).json();
    expect(matrix).toMatchObject({ total: 2, limit: 1 });
    expect(matrix.rows[0].cells).toHaveLength(4);

    const cancelled = await cancelJob(new Request(`http://test/api/eval/${id}/cancel`, { method: 'POST' }), ctx({ id }));
    expect(await cancelled.json()).toEqual({ status: 'cancelled' });
    expect((await (await getJob(get(`/api/eval/${id}`), ctx({ id }))).json()).status).toBe('cancelled');
    await lock.release();
  });

  it('answers 404 for an unknown job or share link', async () => {
    expect((await getJob(get('/api/eval/nope'), ctx({ id: 'nope' }))).status).toBe(404);
    expect((await getShared(get('/api/eval/share/nope'), ctx({ shareId: 'nope' }))).status).toBe(404);
    expect((await cancelJob(new Request('http://test/api/eval/nope/cancel', { method: 'POST' }), ctx({ id: 'nope' }))).status).toBe(404);
  });
});
