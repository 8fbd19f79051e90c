import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool, getPrisma, writesBehind } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { createRun } from '@/lib/runs/service';
import { summariseCost } from '@/lib/runs/store/cost';
import { succeededEnd } from '@/lib/runs/store/lease';
import { TraceRecorder } from '@/lib/trace/recorder';
import { readCalls, readTrace } from '@/lib/trace/store';
import { RUN_ENDED_CHANNEL } from '@/lib/eval/jobs/store/lock';
import { newShareId } from '@/lib/runs/share-id';
import { recordStatements } from '@/lib/db/statements';
import { recordedCall } from '../support/recorded-call';

/**
 * A run's end is stored by its trace's last write, in one statement (lib/trace/store.ts TraceWriter.seal with
 * lib/runs/store/lease.ts succeededEnd): its cost must count what that same statement writes, and a trace with a
 * write missing must never end as succeeded.
 */
afterAll(closeDb);

const outcome = { answer: { answer: 'x', claims: [] }, correct: null, scores: { grounding: null }, kgVersion: null };

describe("a run's end with its trace's last write", () => {
  it('stores the cost of every step and call, those written by the ending statement included', async () => {
    // Offline runs hold their writes: most steps reach the database only with the seal that ends the run.
    const { id } = await createRun({ method: 'kg-rag', question: 'Which drugs treat gout?', backend: 'offline' }, { enqueue: false });
    expect(await executeRun(id)).toBe('succeeded');
    const run = await (await getPrisma()).run.findUniqueOrThrow({ where: { id } });
    const steps = await (await getPrisma()).step.count({ where: { runId: id } });
    const calls = await (await getPrisma()).modelCall.count({ where: { runId: id } });
    expect(steps).toBeGreaterThan(3);
    expect(calls).toBeGreaterThan(0);
    // What the rows say now is what the end stored.
    expect(run.cost).toEqual(await summariseCost(id));
    expect(run.cost).toMatchObject({ modelCalls: calls });
    expect((run.cost as { stages: { steps: number }[] }).stages.reduce((n, s) => n + s.steps, 0)).toBe(steps);
    expect(run.finishedAt).not.toBeNull();
  });

  it("announces an evaluation's run as it ends", async () => {
    const run = await runningRun();
    // The job's driver listens for its runs' ends by the job's id (lib/eval/jobs/store/lock.ts).
    const job = { id: `job-${randomUUID()}` };
    await (await getPrisma()).run.update({ where: { id: run.id }, data: { evalJobId: job.id } });
    const listener = await getPool().connect();
    try {
      const heard = new Promise<string | undefined>((resolve) => listener.once('notification', (n) => resolve(n.payload)));
      await listener.query(`listen ${RUN_ENDED_CHANNEL}`);
      const trace = await TraceRecorder.open(run.id, { fresh: true, everyStepWaits: false, lease: 1 });
      await trace.step({ kind: 'regram.revise', label: 'Work' }, async () => ({ head: 'a', relation: 'r', tail: 'b' }));
      await trace.seal(succeededEnd({ id: run.id, attempts: 1 }, outcome));
      expect(await heard).toBe(job.id);
    } finally {
      await listener.query(`unlisten ${RUN_ENDED_CHANNEL}`);
      listener.release();
    }
  });

  it("with a model, stores the end with the trace complete in its rows; the run's pack follows behind and reads the same", async () => {
    const run = await runningRun();
    const trace = await TraceRecorder.open(run.id, { fresh: true, everyStepWaits: false, lease: 1 });
    await trace.step({ kind: 'xr2.recall', label: 'Asked' }, async (step) => {
      await trace.callRecorder(step)(recordedCall('Q', 'A', null, 'openai'));
      return { claims: [], note: 'recalled' };
    });
    await trace.step({ kind: 'regram.revise', label: 'Work' }, async () => ({ head: 'a', relation: 'r', tail: 'b' }));
    await trace.seal(succeededEnd({ id: run.id, attempts: 1 }, outcome));
    // Ended: every body is readable now, from the rows or from the pack if it is already in.
    const ended = await (await getPrisma()).run.findUniqueOrThrow({ where: { id: run.id } });
    expect(ended.status).toBe('succeeded');
    expect(ended.cost).toMatchObject({ modelCalls: 1 });
    const atEnd = { trace: await readTrace(run.id), calls: await readCalls(run.id) };
    expect(atEnd.trace.steps.map((s) => s.output)).toEqual([
      { claims: [], note: 'recalled' },
      { head: 'a', relation: 'r', tail: 'b' },
    ]);
    expect(atEnd.calls.map((c) => c.output)).toEqual(['A']);

    await writesBehind();
    expect(await (await getPrisma()).tracePack.count({ where: { runId: run.id } })).toBe(1);
    const rows = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(rows.map((r) => [r.input, r.output])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect({ trace: await readTrace(run.id), calls: await readCalls(run.id) }).toEqual(atEnd);
    expect((await (await getPrisma()).run.findUniqueOrThrow({ where: { id: run.id } })).updatedAt).toEqual(ended.updatedAt);
  });

  it("with a model, the last step's end goes in the statement that stores the run's end: one round trip after the last call", async () => {
    const run = await runningRun();
    const trace = await TraceRecorder.open(run.id, { fresh: true, everyStepWaits: false, lease: 1 });
    await trace.step({ kind: 'regram.revise', label: 'First' }, async () => ({ head: 'a', relation: 'r', tail: 'b' }));
    let sent: ReturnType<typeof recordStatements> | null = null;
    await trace.step({ kind: 'xr2.recall', label: 'Last call' }, async (step) => {
      const record = trace.callRecorder(step);
      await trace.flush();
      // The call has answered: from here on, what stands between it and the run's stored end.
      sent = recordStatements();
      await record(recordedCall('Q', 'A', null, 'openai'));
      return { claims: [], note: 'recalled' };
    });
    await trace.seal(succeededEnd({ id: run.id, attempts: 1 }, outcome));
    const statements = sent!.stop();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('ended as (');
    expect((await readTrace(run.id)).steps.map((s) => [s.kind, s.status])).toEqual([
      ['regram.revise', 'succeeded'],
      ['xr2.recall', 'succeeded'],
    ]);
    expect((await (await getPrisma()).run.findUniqueOrThrow({ where: { id: run.id } })).cost).toMatchObject({ modelCalls: 1 });
  });

  it('is not stored when an earlier trace write failed: the seal fails with that write, the run stays running', async () => {
    const run = await runningRun();
    const trace = await TraceRecorder.open(run.id, { fresh: true, everyStepWaits: false, lease: 1 });
    // Sent behind its step (a model run's write), and refused by the database: a selected record of no known channel.
    await trace.step({ kind: 'regram.revise', label: 'Bad evidence' }, async (step) => {
      await trace.addEvidence(step, [{ channel: 'nowhere' as 'kg', kind: 'triple', ref: 'edge:1', text: 'a fact', selected: true }]);
      return { head: 'a', relation: 'r', tail: 'b' };
    });
    await trace.step({ kind: 'regram.revise', label: 'Later work' }, async () => ({ head: 'a', relation: 'r', tail: 'b' })).catch(() => null);
    await expect(trace.seal(succeededEnd({ id: run.id, attempts: 1 }, outcome))).rejects.toThrow();
    const stored = await (await getPrisma()).run.findUniqueOrThrow({ where: { id: run.id } });
    expect(stored.status).toBe('running');
    expect(stored.cost).toBeNull();
  });
});

async function runningRun() {
  return (await getPrisma()).run.create({
    data: { shareId: newShareId(), questionText: 'run end test', input: {}, method: 'direct', config: {}, configHash: 'test', status: 'running', attempts: 1 },
  });
}
