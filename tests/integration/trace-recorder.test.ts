import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPrisma } from '@/lib/db/client';
import { RunCancelledError, TraceRecorder } from '@/lib/trace/recorder';
import { newShareId } from '@/lib/runs/share-id';

async function newRun() {
  return getPrisma().run.create({
    data: {
      shareId: newShareId(),
      questionText: 'recorder test',
      input: {},
      method: 'direct',
      config: {},
      configHash: 'test',
      status: 'running',
    },
  });
}

afterAll(closeDb);

describe('TraceRecorder', () => {
  it('writes nested steps, evidence and outputs as they happen', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(getPrisma(), run.id);
    await trace.step({ kind: 'iteration', label: 'Iteration 1' }, async (iteration) => {
      await trace.step({ kind: 'retrieve', label: 'Retrieve', parent: iteration }, async (step) => {
        const [ev] = await trace.addEvidence(step, [{ channel: 'kg', kind: 'triple', ref: 'edge:1', text: 'a – treats – b' }]);
        // Written before the step ends: a crash here would keep it.
        const stored = await getPrisma().evidence.findUnique({ where: { id: ev.id } });
        expect(stored?.text).toBe('a – treats – b');
        return { found: 1 };
      });
      return { done: true };
    });
    const steps = await getPrisma().step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => [s.kind, s.status])).toEqual([
      ['iteration', 'succeeded'],
      ['retrieve', 'succeeded'],
    ]);
    expect(steps[1].parentStepId).toBe(steps[0].id);
    expect(steps[1].output).toEqual({ found: 1 });
  });

  it('replays completed steps after an interruption and marks the interrupted one failed', async () => {
    const run = await newRun();
    const first = await TraceRecorder.open(getPrisma(), run.id);
    let executions = 0;
    const stage = () =>
      first.step({ kind: 'decompose', label: 'Decompose' }, async () => {
        executions++;
        return { subquestions: ['q1'] };
      });
    await stage();
    // Simulate a crash in the middle of the next step: its row stays 'running'.
    const crashed = await getPrisma().step.create({
      data: { runId: run.id, ordinal: 1, kind: 'reason', label: 'Reason', status: 'running', input: { __key: '/reason:Reason#0' } },
    });
    await getPrisma().evidence.create({ data: { runId: run.id, stepId: crashed.id, ordinal: 0, channel: 'kg', kind: 'triple', ref: 'edge:9', text: 'half-done' } });

    const resumed = await TraceRecorder.open(getPrisma(), run.id);
    const replayed = await resumed.step({ kind: 'decompose', label: 'Decompose' }, async () => {
      executions++;
      return { subquestions: ['changed'] };
    });
    expect(replayed).toEqual({ subquestions: ['q1'] });
    expect(executions).toBe(1);
    const reasoned = await resumed.step({ kind: 'reason', label: 'Reason' }, async () => ({ answer: 'x' }));
    expect(reasoned).toEqual({ answer: 'x' });

    const steps = await getPrisma().step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect((steps[1].output as { error: string }).error).toMatch(/interrupted/);
    expect(await getPrisma().evidence.count({ where: { runId: run.id } })).toBe(0);
  });

  it('stops at the next step once the run is cancelled', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(getPrisma(), run.id);
    await getPrisma().run.update({ where: { id: run.id }, data: { status: 'cancelled' } });
    await expect(trace.step({ kind: 'x', label: 'X' }, async () => 1)).rejects.toBeInstanceOf(RunCancelledError);
  });
});
