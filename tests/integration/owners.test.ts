import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listRuns, POST as createRunRoute } from '@/app/api/runs/route';
import { GET as getRun } from '@/app/api/runs/[id]/route';
import { GET as getView } from '@/app/api/runs/[id]/view/route';
import { GET as exportRun } from '@/app/api/runs/[id]/export/route';
import { POST as cancelRoute } from '@/app/api/runs/[id]/cancel/route';
import { POST as rerunRoute } from '@/app/api/runs/[id]/rerun/route';
import { POST as verifyRoute } from '@/app/api/runs/[id]/verify/route';
import { GET as getSharedView } from '@/app/api/runs/share/[shareId]/view/route';
import { GET as listJobs, POST as startJob } from '@/app/api/eval/route';
import { GET as getJob } from '@/app/api/eval/[id]/route';
import { POST as cancelJob } from '@/app/api/eval/[id]/cancel/route';
import { GET as getSharedJob } from '@/app/api/eval/share/[shareId]/route';
import { createApiToken, createUser, checkCredentials } from '@/lib/auth/users';
import { closeDb, getPrisma } from '@/lib/db/client';
import { generateQuestionSet } from '@/lib/eval/generate';
import { tryLockJob } from '@/lib/eval/jobs/store/lock';
import { executeRun } from '@/lib/runs/executor';

/**
 * Owners, with sign-in on (AUTH_SECRET): a second signed-in user cannot read,
 * cancel, rerun or verify the first user's private runs, nor read or cancel
 * their evaluations, and does not see them listed; both open what was shared.
 */

const saved = process.env.AUTH_SECRET;
let alice: string;
let bob: string;
let setName: string;

beforeAll(async () => {
  process.env.AUTH_SECRET = randomUUID() + randomUUID();
  const tag = randomUUID().slice(0, 8);
  await createUser({ email: `alice-${tag}@lab.example`, password: 'correct horse battery' });
  await createUser({ email: `bob-${tag}@lab.example`, password: 'another long password' });
  alice = await createApiToken(`alice-${tag}@lab.example`);
  bob = await createApiToken(`bob-${tag}@lab.example`);
  setName = `owners-${tag}`;
  await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'owners', count: 1 });
});

afterAll(async () => {
  if (saved === undefined) delete process.env.AUTH_SECRET;
  else process.env.AUTH_SECRET = saved;
  await closeDb();
});

const as = (token: string | null, path: string, init: RequestInit = {}) =>
  new Request(`http://test${path}`, { ...init, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

describe('owners and sign-in', () => {
  it('checks passwords with a standard hash and refuses a wrong one', async () => {
    const row = await (await getPrisma()).user.findFirstOrThrow({ where: { email: { startsWith: 'alice-' } }, orderBy: { createdAt: 'desc' } });
    expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await checkCredentials(row.email, 'correct horse battery')).toMatchObject({ id: row.id });
    expect(await checkCredentials(row.email, 'wrong password!!')).toBeNull();
  });

  it("a second user cannot read, cancel, rerun or verify the first user's run, but opens its share link", async () => {
    const created = await createRunRoute(
      as(alice, '/api/runs', {
        method: 'POST',
        body: JSON.stringify({ method: 'kg-rag', question: 'Which diseases does metformin treat?', backend: 'offline' }),
      }),
    );
    expect(created.status).toBe(201);
    const { id, shareId } = await created.json();
    await executeRun(id);

    expect((await getRun(as(alice, '/'), ctx({ id }))).status).toBe(200);
    const attempts = [
      await getRun(as(bob, '/'), ctx({ id })),
      await getView(as(bob, '/'), ctx({ id })),
      await exportRun(as(bob, '/'), ctx({ id })),
      await cancelRoute(as(bob, '/', { method: 'POST' }), ctx({ id })),
      await rerunRoute(
        as(bob, '/', { method: 'POST', body: JSON.stringify({ switches: { doc: true, entity: true, kg: false, param: true, web: true } }) }),
        ctx({ id }),
      ),
      await verifyRoute(as(bob, '/', { method: 'POST' }), ctx({ id })),
    ];
    for (const response of attempts) expect(response.status).toBe(404);
    const run = await (await getPrisma()).run.findUniqueOrThrow({ where: { id } });
    expect(run.status).toBe('succeeded');
    expect(await (await getPrisma()).run.count({ where: { parentRunId: id } })).toBe(0);

    // Nobody signed in: 401; a bad token: 401.
    expect((await getRun(as(null, '/'), ctx({ id }))).status).toBe(401);
    expect((await getRun(as('hsk_not-a-token', '/'), ctx({ id }))).status).toBe(401);

    // Lists: alice sees her run, bob does not.
    const listed = async (token: string) => ((await (await listRuns(as(token, '/api/runs?limit=200'))).json()).items as { id: string }[]).map((r) => r.id);
    expect(await listed(alice)).toContain(id);
    expect(await listed(bob)).not.toContain(id);

    // What was shared opens for anyone, signed in or not.
    const shared = await getSharedView(as(bob, '/'), ctx({ shareId }));
    expect(shared.status).toBe(200);
    expect((await shared.json()).id).toBe(shareId);
    expect((await getSharedView(as(null, '/'), ctx({ shareId }))).status).toBe(200);
  });

  it("a second user cannot read or cancel the first user's evaluation, nor see it listed, but opens its share link", async () => {
    const created = await startJob(as(alice, '/api/eval', { method: 'POST', body: JSON.stringify({ set: setName, methods: 'kg-rag', backend: 'offline' }) }));
    expect(created.status).toBe(201);
    const { id, shareId } = await created.json();
    const lock = await tryLockJob(id);
    try {
      expect((await getJob(as(bob, '/'), ctx({ id }))).status).toBe(404);
      expect((await cancelJob(as(bob, '/', { method: 'POST' }), ctx({ id }))).status).toBe(404);
      expect((await (await getPrisma()).evalJob.findUniqueOrThrow({ where: { id } })).status).toBe('queued');
      const listed = async (token: string) => ((await (await listJobs(as(token, '/api/eval'))).json()).items as { id: string }[]).map((j) => j.id);
      expect(await listed(alice)).toContain(id);
      expect(await listed(bob)).not.toContain(id);
      expect((await getSharedJob(as(bob, '/'), ctx({ shareId }))).status).toBe(200);
      expect((await cancelJob(as(alice, '/', { method: 'POST' }), ctx({ id }))).status).toBe(200);
    } finally {
      await lock?.release();
    }
  });
});
