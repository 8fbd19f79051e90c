import { afterAll, describe, expect, it } from 'vitest';
import { POST as createRunRoute } from '@/app/api/runs/route';
import { GET as getRunRoute } from '@/app/api/runs/[id]/route';
import { POST as rerunRoute } from '@/app/api/runs/[id]/rerun/route';
import { POST as verifyRoute } from '@/app/api/runs/[id]/verify/route';
import { closeDb, getPrisma } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { stopQueue } from '@/lib/runs/queue';

afterAll(async () => {
  await stopQueue();
  await closeDb();
});

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

/** Runs a run the route queued to its end: here, unless a worker of a running app took it first. */
async function finish(id: string) {
  await executeRun(id);
  for (let i = 0; i < 300; i++) {
    const { status } = await (await getPrisma()).run.findUniqueOrThrow({ where: { id }, select: { status: true } });
    if (!['queued', 'running'].includes(status)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}
const post = (body: string) => new Request('http://x/api/runs', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('runs API', () => {
  it('refuses malformed and invalid bodies with a message naming the problem, and stores nothing', async () => {
    const notJson = await createRunRoute(post('{"question": '));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: 'The body must be JSON' });

    const badMethod = await createRunRoute(post(JSON.stringify({ question: 'Which genes are associated with asthma?', method: 'oracle' })));
    expect(badMethod.status).toBe(400);
    expect((await badMethod.json()).error).toMatch(/method must be one of direct, cot, kg-rag/);

    const both = await createRunRoute(post(JSON.stringify({ method: 'kg-rag', question: 'Which genes?', questionId: 'q1' })));
    expect(both.status).toBe(400);
    expect((await both.json()).error).toMatch(/exactly one of question or questionId/);

    const badParams = await createRunRoute(
      post(JSON.stringify({ method: 'kg-rag', question: 'Which genes are associated with asthma?', params: { topK: -4 } })),
    );
    expect(badParams.status).toBe(400);
  });

  it('answers 404 for an unknown run, for reading, rerunning and verifying', async () => {
    for (const res of [
      await getRunRoute(new Request('http://x/'), ctx('no-such-run')),
      await rerunRoute(
        new Request('http://x/', { method: 'POST', body: '{"switches":{"doc":true,"entity":true,"kg":false,"param":true,"web":true}}' }),
        ctx('no-such-run'),
      ),
      await verifyRoute(new Request('http://x/', { method: 'POST' }), ctx('no-such-run')),
    ]) {
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatch(/no-such-run/);
    }
  });

  it('creates a run, returns its whole trace, and verifies it with the K2V checklist', async () => {
    const created = await createRunRoute(post(JSON.stringify({ method: 'kg-rag', question: 'Which diseases does metformin treat?', backend: 'offline' })));
    expect(created.status).toBe(201);
    const { id, shareId } = (await created.json()) as { id: string; shareId: string };
    expect(shareId).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    await finish(id);

    const res = await getRunRoute(new Request('http://x/'), ctx(id));
    const run = (await res.json()) as { status: string; steps: { kind: string }[]; evidence: { channel: string }[]; config: { backend: { model: string } } };
    expect(run.status).toBe('succeeded');
    expect(run.config.backend.model).toBe('offline engine (no language model)');
    expect(run.steps.length).toBeGreaterThan(0);
    expect(run.evidence.some((e) => e.channel === 'kg')).toBe(true);

    const sameConfig = await rerunRoute(new Request('http://x/', { method: 'POST', body: '{}' }), ctx(id));
    expect(sameConfig.status).toBe(400);
    expect((await sameConfig.json()).error).toMatch(/changes nothing/);

    const badAlpha = await verifyRoute(new Request('http://x/', { method: 'POST', body: '{"alpha": "six"}' }), ctx(id));
    expect(badAlpha.status).toBe(400);
    const verified = await verifyRoute(new Request('http://x/', { method: 'POST' }), ctx(id));
    expect(verified.status).toBe(200);
    const report = (await verified.json()) as { runId: string; passRate: number; criteria: unknown[] };
    expect(report.runId).toBe(id);
    expect(report.criteria.length).toBeGreaterThan(0);
    expect(report.passRate).toBeGreaterThanOrEqual(0);
    expect(report.passRate).toBeLessThanOrEqual(1);
  });

  it('serves a web bundle sent with the run through the web channel, and only when web is on', async () => {
    const webBundle = [
      { id: 'w1', url: 'https://example.org/metformin', title: 'Metformin and diabetes', snippet: 'Metformin is a first-line treatment for type 2 diabetes.' },
      { id: 'w2', title: 'Unrelated', snippet: 'Volcanoes of Iceland.' },
    ];
    const bad = await createRunRoute(
      post(JSON.stringify({ method: 'kg-rag', question: 'Which diseases does metformin treat?', webBundle: [{ id: 'x', title: '', snippet: 's' }] })),
    );
    expect(bad.status).toBe(400);

    const webOf = async (web: boolean) => {
      const created = await createRunRoute(
        post(
          JSON.stringify({
            method: 'kg-rag',
            question: 'Which diseases does metformin treat?',
            backend: 'offline',
            webBundle,
            switches: { doc: true, entity: true, kg: true, param: true, web },
          }),
        ),
      );
      const { id } = (await created.json()) as { id: string };
      await finish(id);
      const run = (await (await getRunRoute(new Request('http://x/'), ctx(id))).json()) as { evidence: { channel: string; ref: string }[] };
      return run.evidence.filter((e) => e.channel === 'web').map((e) => e.ref);
    };
    expect(await webOf(true)).toEqual(['web:w1']);
    expect(await webOf(false)).toEqual([]);
  });
});
