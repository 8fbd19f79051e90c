import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPrisma } from '@/lib/db/client';
import { RunCancelledError, TraceRecorder } from '@/lib/trace/recorder';
import { readTrace } from '@/lib/trace/store';
import { unpack } from '@/lib/trace/codec';
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

async function until<T>(probe: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

describe('TraceRecorder', () => {
  it('writes a step still running as running, and its evidence and output when it ends', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    await trace.step({ kind: 'iteration', label: 'Iteration 1' }, async (iteration) => {
      await trace.step({ kind: 'retrieve', label: 'Retrieve', parent: iteration }, async (step) => {
        await trace.addEvidence(step, [{ channel: 'kg', kind: 'triple', ref: 'edge:1', text: 'a – treats – b' }]);
        // A step that keeps running is soon there as running (a crash marks it interrupted), with its parent; its evidence is written when it ends.
        const running = await until(() => getPrisma().step.findUnique({ where: { id: step.id } }));
        expect(running).toMatchObject({ status: 'running', parentStepId: iteration.id });
        expect(await getPrisma().step.findUnique({ where: { id: iteration.id } })).toMatchObject({ status: 'running' });
        expect(await getPrisma().evidence.count({ where: { runId: run.id } })).toBe(0);
        return { found: 1 };
      });
      const [retrieve] = (await readTrace(run.id)).evidence;
      expect(retrieve).toMatchObject({ text: 'a – treats – b', selected: false });
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

  it('stores every step that ended by the time it returns, parallel ones included; skipped steps by the next write', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    const stored = (kind: string) => getPrisma().step.findFirst({ where: { runId: run.id, kind } });
    await trace.skipped({ kind: 'channel.doc', label: 'Documents' }, 'doc switch is off');
    await trace.step({ kind: 'round', label: 'Round 1' }, async (round) => {
      const ends = [0, 1, 2].map((i) =>
        trace.step({ kind: `propose.${i}`, label: `Proposer ${i}`, parent: round }, async (step) => {
          await trace.addEvidence(step, [{ channel: 'kg', kind: 'triple', ref: `edge:${i}`, text: `fact ${i}`, selected: true }]);
          return { i };
        }),
      );
      for (const [i, end] of ends.entries()) {
        await end;
        expect(await stored(`propose.${i}`)).toMatchObject({ status: 'succeeded', output: { i }, parentStepId: round.id });
      }
      return { proposals: 3 };
    });
    await trace.flush();
    const steps = await getPrisma().step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => [s.kind, s.status])).toEqual([
      ['channel.doc', 'skipped'],
      ['round', 'succeeded'],
      ['propose.0', 'succeeded'],
      ['propose.1', 'succeeded'],
      ['propose.2', 'succeeded'],
    ]);
    expect(steps[0].output).toEqual({ reason: 'doc switch is off' });
    expect(await getPrisma().evidence.count({ where: { runId: run.id, selected: true } })).toBe(3);
  });

  it('replays completed steps after an interruption and marks the interrupted one failed', async () => {
    const run = await newRun();
    const first = await TraceRecorder.open(run.id);
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

    const resumed = await TraceRecorder.open(run.id);
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
    const trace = await TraceRecorder.open(run.id);
    await getPrisma().run.update({ where: { id: run.id }, data: { status: 'cancelled' } });
    await expect(trace.step({ kind: 'x', label: 'X' }, async () => 1)).rejects.toBeInstanceOf(RunCancelledError);
  });

  it("keeps a step's unselected candidates as one record, selected ones as rows, and outputs as references, all read back in full", async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    const candidates = Array.from({ length: 40 }, (_, i) => ({
      channel: 'kg' as const,
      kind: 'triple' as const,
      ref: `edge:${i}`,
      text: `gene ${i} – associates – disease`,
      data: { edgeId: i, sourceName: `gene ${i}` },
      scores: { sim: i / 40, rank: i < 5 ? i + 1 : null },
    }));
    const pool = await trace.step({ kind: 'retrieve', label: 'Candidates' }, async (step) => trace.addEvidence(step, candidates));
    const table = await trace.step({ kind: 'select', label: 'Top 5', input: { pool } }, async () => {
      await trace.markSelected(pool.slice(0, 5).map((r) => r.id));
      return { rows: pool.map((r, i) => ({ record: r, selected: i < 5 })) };
    });

    // Storage: 5 rows of evidence (the selected), the 40 candidates once, as one pool on their step.
    const prisma = getPrisma();
    expect(await prisma.evidence.count({ where: { runId: run.id } })).toBe(5);
    const steps = await prisma.step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(unpack(steps[0].evidencePool)).toHaveLength(40);
    // One compact record: field names once, not once per candidate.
    expect(JSON.stringify(steps[0].evidencePool).split('"sourceName"')).toHaveLength(2);
    expect(JSON.stringify(steps[1].input)).not.toContain('gene 7 – associates');
    expect(JSON.stringify(steps[1].output)).not.toContain('gene 7 – associates');

    // Read back: every candidate, in order, with its data and scores; the step input and output as they were given.
    const read = await readTrace(run.id);
    expect(read.evidence.map((e) => e.ref)).toEqual(candidates.map((c) => c.ref));
    expect(read.evidence.filter((e) => e.selected).map((e) => e.ref)).toEqual(['edge:0', 'edge:1', 'edge:2', 'edge:3', 'edge:4']);
    expect(read.evidence[7]).toMatchObject({ stepId: steps[0].id, data: candidates[7].data, scores: candidates[7].scores, text: candidates[7].text });
    expect(read.steps[0].output).toEqual(JSON.parse(JSON.stringify(pool)));
    expect((read.steps[1].input as { pool: unknown }).pool).toEqual(JSON.parse(JSON.stringify(pool)));
    expect(read.steps[1].output).toEqual(JSON.parse(JSON.stringify(table)));

    // A resumed run replays both steps with the same values.
    const resumed = await TraceRecorder.open(run.id);
    const replayed = await resumed.step({ kind: 'retrieve', label: 'Candidates' }, async () => {
      throw new Error('must replay');
    });
    expect(replayed).toEqual(JSON.parse(JSON.stringify(pool)));
  });
});
