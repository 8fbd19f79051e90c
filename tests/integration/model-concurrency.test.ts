import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getPrisma } from '@/lib/db/client';
import { callTimings } from '@/lib/runs/view';
import { criticalPath } from '@/lib/trace/concurrency';
import { verifyRun } from '@/lib/runs/verify';
import { startOfflineModelServer, type OfflineModelServer } from '../support/offline-model-server';
import { runToSuccess } from '../support/runs';

/**
 * A run's independent model calls go out together, up to the run's limit
 * (HOPSCOPE_MODEL_CONCURRENCY), and the trace says which overlapped: runs in
 * model mode against a server that answers every call after DELAY_MS.
 */
// Long enough that a busy machine cannot make two calls sent together look one after the other.
const DELAY_MS = 400;
let model: OfflineModelServer;

beforeAll(async () => {
  model = await startOfflineModelServer({ delayMs: DELAY_MS, model: `scripted-${randomUUID()}` });
});
afterAll(async () => {
  await model.close();
});
afterEach(async () => {
  delete process.env.HOPSCOPE_MODEL_CONCURRENCY;
  await model.resetInFlight();
});

describe('model calls of one run', () => {
  it("ReGraM's domain typing and decomposition read only the question: both requests are in flight together, and the timeline groups them", async () => {
    const run = await runToSuccess({ method: 'regram', backend: 'openai', question: 'What drugs are used to treat type 2 diabetes mellitus?' });
    const calls = await callTimings(run.id);
    const [classify] = calls.filter((c) => c.role === 'classify');
    const [decompose] = calls.filter((c) => c.role === 'decompose');
    expect(classify.latencyMs).toBeGreaterThanOrEqual(DELAY_MS);
    // Each went out before the other came back.
    const end = (c: typeof classify) => Date.parse(c.startedAt) + c.latencyMs;
    expect(Date.parse(classify.startedAt)).toBeLessThan(end(decompose));
    expect(Date.parse(decompose.startedAt)).toBeLessThan(end(classify));
    expect(classify.concurrentGroup).not.toBeNull();
    expect(decompose.concurrentGroup).toBe(classify.concurrentGroup);
    expect(await model.maxInFlight()).toBeGreaterThanOrEqual(2);
    // Two calls in one round: the chain of calls that waited for each other is shorter than the calls.
    const chain = criticalPath(calls.map((c) => ({ start: Date.parse(c.startedAt), end: Date.parse(c.startedAt) + c.latencyMs })));
    expect(chain.calls).toBeLessThan(calls.length);
  });

  it('the server, a process of its own, answers each call as the offline engine here does: an X-R2 run takes the offline run’s calls to its answer', async () => {
    const question = 'Which genes are associated with asthma?';
    const [offline, model] = [await runToSuccess({ method: 'xr2', question }), await runToSuccess({ method: 'xr2', backend: 'openai', question })];
    const calls = async (id: string) => (await callTimings(id)).map((c) => c.role);
    const answer = (run: typeof offline) => run.answer as { text: string; items?: string[]; abstained: boolean };
    expect(await calls(model.id)).toEqual(await calls(offline.id));
    expect(answer(model).abstained).toBe(false);
    expect(answer(model)).toMatchObject({ text: answer(offline).text, items: answer(offline).items, abstained: answer(offline).abstained });
  });

  it("K2V judges every criterion at once, and the run's limit caps the requests in flight", async () => {
    const run = await runToSuccess({ method: 'kg-rag', backend: 'openai', question: 'Which drugs treat gout?' });
    process.env.HOPSCOPE_MODEL_CONCURRENCY = '2';
    await model.resetInFlight();
    const report = await verifyRun(run.id);
    expect(report.criteria.length).toBeGreaterThan(2);
    // More criteria than slots: the server held exactly the limit at once, never more.
    expect(await model.maxInFlight()).toBe(2);

    process.env.HOPSCOPE_MODEL_CONCURRENCY = '1';
    // Another model name: the response cache holds the first verification's answers.
    process.env.HOPSCOPE_MODEL = `scripted-${randomUUID()}`;
    await model.resetInFlight();
    const again = await verifyRun(run.id);
    expect(again.criteria.length).toBe(report.criteria.length);
    expect(await model.maxInFlight()).toBe(1);
  });

  it('a limit of 1 runs every call of EIGEN-1 (whose proposers are independent) one after another: no call overlaps another', async () => {
    process.env.HOPSCOPE_MODEL_CONCURRENCY = '1';
    const run = await runToSuccess({ method: 'eigen1', backend: 'openai', question: 'Which drugs treat gout?', params: { k: 3, hsr: false, qair: false } });
    const calls = await callTimings(run.id);
    expect(calls.filter((c) => c.role === 'propose' || c.role === 'generate').length).toBeGreaterThanOrEqual(3);
    // A monitor asked while a generation streams is part of that call (it holds no slot of its own): only it may overlap.
    expect(
      calls.filter((c) => c.concurrentGroup !== null && c.role !== 'monitor' && c.role !== 'generate' && c.role !== 'querier' && c.role !== 'injector'),
    ).toEqual([]);
    expect(await (await getPrisma()).modelCall.count({ where: { runId: run.id, startedAt: null } })).toBe(0);
  });

  it('rejects a limit that is not a positive whole number', async () => {
    process.env.HOPSCOPE_MODEL_CONCURRENCY = '0';
    const { readEnv } = await import('@/lib/config');
    expect(() => readEnv()).toThrow(/HOPSCOPE_MODEL_CONCURRENCY/);
  });
});
