import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { encode } from 'next-auth/jwt';
import { proxy } from '@/proxy';
import { generateSetAction, importSetAction } from '@/app/eval/actions';
import { POST as createRunRoute } from '@/app/api/runs/route';
import { GET as getDocumentRoute } from '@/app/api/documents/[id]/route';
import { GET as getSetQuestions } from '@/app/api/question-sets/[id]/route';
import { POST as startJob } from '@/app/api/eval/route';
import { EMPTY_SET_FORM } from '@/lib/eval/set-form';
import { createApiToken, createUser } from '@/lib/auth/users';
import { closeDb, getPrisma } from '@/lib/db/client';
import { generateQuestionSet } from '@/lib/eval/generate';
import { getQuestionSet, listQuestionSets, SetNameTaken } from '@/lib/eval/sets';
import { InvalidInputError } from '@/lib/base/errors';
import { questionAttribution } from '@/lib/runs/attribution';
import { createRun } from '@/lib/runs/service';

/**
 * One signed-in user never reads or changes another's data: a forged session
 * cookie opens no page and no server action stores anything; question sets
 * have owners and per-owner names (never replaced by someone else, never
 * silently replaced at all); X-R2's attribution reads only the run owner's
 * runs (so neither /compare nor a /c/ share page names another user's run);
 * attached documents are their owner's.
 */

const saved = process.env.AUTH_SECRET;
const secret = randomUUID() + randomUUID();
const tag = randomUUID().slice(0, 8);
let alice: { id: string; token: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  process.env.AUTH_SECRET = secret;
  const a = await createUser({ email: `alice-x-${tag}@lab.example`, password: 'correct horse battery' });
  const b = await createUser({ email: `bob-x-${tag}@lab.example`, password: 'another long password' });
  alice = { id: a.id, token: await createApiToken(a.email) };
  bob = { id: b.id, token: await createApiToken(b.email) };
});

afterAll(async () => {
  if (saved === undefined) delete process.env.AUTH_SECRET;
  else process.env.AUTH_SECRET = saved;
  await closeDb();
});

const as = (token: string | null, path: string, init: RequestInit = {}) =>
  new Request(`http://test${path}`, { ...init, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });
const viewerOf = (user: { id: string }) => ({ auth: true as const, user: { id: user.id, email: '' } });

describe('a forged session cookie', () => {
  it('opens no page: only a cookie that decrypts under AUTH_SECRET passes the proxy', async () => {
    const page = (cookie: string) => proxy(new NextRequest('http://127.0.0.1:3000/eval', { headers: { cookie } }));
    for (const cookie of ['next-auth.session-token=forged', '__Secure-next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z']) {
      const response = await page(cookie);
      expect(response.status, cookie).toBe(307);
      expect(response.headers.get('location'), cookie).toContain('/api/auth/signin');
    }
    // Signed with another secret: refused too.
    const otherSecret = await encode({ token: { sub: alice.id }, secret: randomUUID() + randomUUID() });
    expect((await page(`next-auth.session-token=${otherSecret}`)).status).toBe(307);
    // A real session passes.
    const real = await encode({ token: { sub: alice.id, email: 'a@b' }, secret });
    const passed = await page(`next-auth.session-token=${real}`);
    expect(passed.status).toBe(200);
    expect(passed.headers.get('location')).toBeNull();
  });

  it('generates and imports no question set through the server actions without a verified session', async () => {
    const before = await (await getPrisma()).questionSet.count();
    const form = new FormData();
    form.set('generator', 'biomedhop');
    form.set('name', `forged-${tag}`);
    form.set('count', '1');
    const generated = await generateSetAction(EMPTY_SET_FORM, form);
    expect(generated.created).toBeFalsy();
    expect(generated.message).toMatch(/sign in/i);

    const upload = new FormData();
    upload.set('format', 'jsonl');
    upload.set('name', `forged-import-${tag}`);
    upload.set('file', new File([JSON.stringify({ question: 'Is metformin a drug?', answer: 'yes' }) + '\n'], 'q.jsonl'));
    const imported = await importSetAction(EMPTY_SET_FORM, upload);
    expect(imported.created).toBeFalsy();
    expect(imported.message).toMatch(/sign in/i);
    expect(await (await getPrisma()).questionSet.count()).toBe(before);
  });
});

describe('question sets have owners and per-owner names', () => {
  it("never replaces or shows another user's set, and refuses a silent replacement or a look-alike name", async () => {
    const name = `panel-${tag}`;
    const mine = await generateQuestionSet({ generator: 'biomedhop', name, seed: 'alice', count: 3 }, { ownerId: alice.id });
    // Bob's set of the same name (even asking to replace) is his own: Alice's keeps its questions.
    const his = await generateQuestionSet({ generator: 'biomedhop', name, seed: 'bob', count: 1 }, { ownerId: bob.id, replace: true });
    expect(his.id).not.toBe(mine.id);
    expect((await getQuestionSet(mine.id))!.questions).toHaveLength(3);
    expect((await getQuestionSet(name, viewerOf(alice)))!.id).toBe(mine.id);
    expect((await getQuestionSet(name, viewerOf(bob)))!.id).toBe(his.id);
    expect(await getQuestionSet(mine.id, viewerOf(bob))).toBeNull();
    expect((await listQuestionSets(viewerOf(bob))).map((s) => s.id)).not.toContain(mine.id);

    // Alice again under her name: refused unless she asks to replace.
    await expect(generateQuestionSet({ generator: 'biomedhop', name, seed: 'again', count: 1 }, { ownerId: alice.id })).rejects.toBeInstanceOf(SetNameTaken);
    // Look-alikes: a zero-width space is refused; a full-width spelling is the same name (NFKC), so taken.
    await expect(
      generateQuestionSet({ generator: 'biomedhop', name: `panel\u200b-${tag}`, seed: 'x', count: 1 }, { ownerId: alice.id }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    const fullWidth = [...name].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
    await expect(generateQuestionSet({ generator: 'biomedhop', name: fullWidth, seed: 'x', count: 1 }, { ownerId: alice.id })).rejects.toBeInstanceOf(
      SetNameTaken,
    );
    expect((await getQuestionSet(mine.id))!.questions).toHaveLength(3);
    const replaced = await generateQuestionSet({ generator: 'biomedhop', name, seed: 'again', count: 2 }, { ownerId: alice.id, replace: true });
    expect((await getQuestionSet(replaced.id))!.questions).toHaveLength(2);
    expect((await getQuestionSet(his.id))!.questions).toHaveLength(1);

    // Through the API: Bob cannot page Alice's set, run her question, or start an evaluation on it by name.
    expect((await getSetQuestions(as(bob.token, `/api/question-sets/${replaced.id}`), ctx({ id: replaced.id }))).status).toBe(404);
    const question = (await getQuestionSet(replaced.id))!.questions[0]!;
    const run = await createRunRoute(
      as(bob.token, '/api/runs', { method: 'POST', body: JSON.stringify({ method: 'kg-rag', questionId: question.id, backend: 'offline' }) }),
    );
    expect(run.status).toBe(404);
    const job = await startJob(
      as(bob.token, '/api/eval', { method: 'POST', body: JSON.stringify({ set: name, methods: 'kg-rag', backend: 'offline', limit: 1 }) }),
    );
    expect(job.status).toBe(201);
    const created = await (await getPrisma()).evalJob.findUniqueOrThrow({ where: { id: (await job.json()).id } });
    expect(created.setId).toBe(his.id);
    await (await getPrisma()).evalJob.update({ where: { id: created.id }, data: { status: 'cancelled' } });
  });
});

describe('attribution and documents', () => {
  async function finishedRun(owner: { id: string }, question: string, switches: Record<string, boolean>, documents?: { text: string }[]) {
    const { id, shareId } = await createRun(
      { method: 'kg-rag', question, switches, backend: 'offline', ...(documents ? { documents } : {}) },
      { enqueue: false, ownerId: owner.id },
    );
    await (await getPrisma()).run.update({ where: { id }, data: { status: 'succeeded', correct: true, finishedAt: new Date() } });
    return { id, shareId };
  }

  it("reads only the run owner's sibling runs, on the owner's page and behind a share link", async () => {
    const question = `Which genes does metformin upregulate? (${tag})`;
    const full = { doc: true, entity: true, kg: true, param: true, web: true };
    const a = await finishedRun(alice, question, { ...full, kg: false });
    const b1 = await finishedRun(bob, question, full);
    const b2 = await finishedRun(bob, question, { ...full, entity: false });
    const own = await questionAttribution(b1.id);
    const named = JSON.stringify(own);
    expect(named).toContain(b2.id);
    expect(named).not.toContain(a.id);
    expect(named).not.toContain(a.shareId);
    expect(own.grid.find((g) => g.name === 'kg-off')!.run).toBeNull();
    const shared = JSON.stringify(await questionAttribution(b1.id, { shared: true }));
    expect(shared).toContain(b2.shareId);
    expect(shared).not.toContain(a.shareId);
    expect(shared).not.toContain(a.id);
  });

  it('serves an attached document to its owner only', async () => {
    const secretText = `Alice's private notes ${tag}: metformin and AMPK.`;
    const run = await finishedRun(alice, `What does metformin activate? (${tag})`, { doc: true, entity: true, kg: true, param: true, web: true }, [
      { text: secretText },
    ]);
    const input = (await (await getPrisma()).run.findUniqueOrThrow({ where: { id: run.id } })).input as { documentIds: string[] };
    const id = input.documentIds[0]!;
    const mine = await getDocumentRoute(as(alice.token, `/api/documents/${id}`), ctx({ id }));
    expect(mine.status).toBe(200);
    expect((await mine.json()).text).toBe(secretText);
    const theirs = await getDocumentRoute(as(bob.token, `/api/documents/${id}`), ctx({ id }));
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('private notes');
  });
});
