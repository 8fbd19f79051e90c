import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPrisma } from '@/lib/db/client';
import { randomUUID } from 'node:crypto';
import { RunCancelledError, RunLeaseLostError, TraceRecorder } from '@/lib/trace/recorder';
import { ModelClient } from '@/lib/llm/client';
import { OpenAIBackend } from '@/lib/llm/openai-backend';
import { PostgresResponseCache } from '@/lib/llm/store';
import { recallTemplate } from '@/lib/llm/templates/generic';
import { reply, startScriptedOpenAIServer } from '../support/openai-server';
import { StepContractError } from '@/lib/trace/step-schemas';
import { readCalls, readStep, readTrace } from '@/lib/trace/store';
import { callTimings } from '@/lib/runs/view';
import { getPool } from '@/lib/db/client';
import { unpack } from '@/lib/trace/codec';
import { newShareId } from '@/lib/runs/share-id';
import { recordedCall } from '../support/recorded-call';

async function newRun() {
  return (await getPrisma()).run.create({
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

const decomposition = (current: string) => ({ subquestions: [current], constraints: [], required_evidence: [], current });

/** Twenty evidence lines, the shared part of the prompts below (stored once per run). */
const EVIDENCE = Array.from({ length: 20 }, (_, i) => `[K${i}] gene ${i} – associates – multiple sclerosis`).join('\n');

const call = (content: string, output: string, parsed: unknown) => recordedCall(content, output, parsed);

describe('TraceRecorder', () => {
  it('writes a step still running as running, and its evidence and output when it ends', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    await trace.step({ kind: 'xr2.recall', label: 'Recall' }, async (recall) => {
      await trace.step({ kind: 'channel.kg', label: 'Retrieve', parent: recall }, async (step) => {
        const found = await trace.addEvidence(step, [{ channel: 'kg', kind: 'triple', ref: 'edge:1', text: 'a – treats – b' }]);
        // A step that keeps running is soon there as running (a crash marks it interrupted), with its parent; its evidence is written when it ends.
        const running = await until(async () => (await getPrisma()).step.findUnique({ where: { id: step.id } }));
        expect(running).toMatchObject({ status: 'running', parentStepId: recall.id });
        expect(await (await getPrisma()).step.findUnique({ where: { id: recall.id } })).toMatchObject({ status: 'running' });
        expect(await (await getPrisma()).evidence.count({ where: { runId: run.id } })).toBe(0);
        return found;
      });
      const [retrieve] = (await readTrace(run.id)).evidence;
      expect(retrieve).toMatchObject({ text: 'a – treats – b', selected: false });
      return { claims: [], note: 'done' };
    });
    const steps = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => [s.kind, s.status])).toEqual([
      ['xr2.recall', 'succeeded'],
      ['channel.kg', 'succeeded'],
    ]);
    expect(steps[1].parentStepId).toBe(steps[0].id);
    expect(steps[0].output).toEqual({ claims: [], note: 'done' });
  });

  it('stores every step that ended by the time it returns, parallel ones included; skipped steps by the next write', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    const stored = async (label: string) => (await getPrisma()).step.findFirst({ where: { runId: run.id, label } });
    await trace.skipped({ kind: 'channel.doc', label: 'Documents' }, 'doc switch is off');
    await trace.step({ kind: 'xr2.recall', label: 'Round 1' }, async (round) => {
      const ends = [0, 1, 2].map((i) =>
        trace.step({ kind: 'regram.revise', label: `Proposer ${i}`, parent: round }, async (step) => {
          await trace.addEvidence(step, [{ channel: 'kg', kind: 'triple', ref: `edge:${i}`, text: `fact ${i}`, selected: true }]);
          return { head: `h${i}`, relation: 'r', tail: 't' };
        }),
      );
      for (const [i, end] of ends.entries()) {
        await end;
        expect(await stored(`Proposer ${i}`)).toMatchObject({ status: 'succeeded', output: { head: `h${i}` }, parentStepId: round.id });
      }
      return { claims: [], note: '3 proposals' };
    });
    await trace.flush();
    const steps = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => [s.kind, s.status])).toEqual([
      ['channel.doc', 'skipped'],
      ['xr2.recall', 'succeeded'],
      ['regram.revise', 'succeeded'],
      ['regram.revise', 'succeeded'],
      ['regram.revise', 'succeeded'],
    ]);
    expect(steps[0].output).toEqual({ reason: 'doc switch is off' });
    expect(await (await getPrisma()).evidence.count({ where: { runId: run.id, selected: true } })).toBe(3);
  });

  it('stores model calls compactly and reads them back as made: prompt lines once per run, a parsed output that is its text once', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    const made = [call(`Q1\n${EVIDENCE}`, '{"answer": "IL7R"}', { answer: 'IL7R' }), call(`Q2\n${EVIDENCE}`, 'IL7R, probably', { answer: 'IL7R' })];
    await trace.step({ kind: 'xr2.recall', label: 'Recall' }, async (step) => {
      for (const c of made) await trace.callRecorder(step)(c);
      return { claims: [], note: null };
    });
    const stored = await (await getPrisma()).modelCall.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(JSON.stringify(stored[1].messages)).not.toContain('gene 7');
    expect(stored[0].parsed).not.toEqual({ answer: 'IL7R' });
    const read = await readCalls(run.id);
    expect(read.map((c) => [c.messages, c.output, c.parsed])).toEqual(made.map((c) => [c.messages, c.output, c.parsed]));
  });

  it('replays completed steps after an interruption and marks the interrupted one failed', async () => {
    const run = await newRun();
    const first = await TraceRecorder.open(run.id);
    let executions = 0;
    const stage = () =>
      first.step({ kind: 'xr2.decompose', label: 'Decompose' }, async () => {
        executions++;
        return decomposition('q1');
      });
    await stage();
    // Simulate a crash in the middle of the next step: its row stays 'running'.
    const crashed = await (
      await getPrisma()
    ).step.create({
      data: { runId: run.id, ordinal: 1, kind: 'regram.revise', label: 'Revise', status: 'running', input: { __key: '/regram.revise:Revise#0' } },
    });
    await (
      await getPrisma()
    ).evidence.create({
      data: { runId: run.id, stepId: crashed.id, ordinal: 0, channel: 'kg', kind: 'triple', ref: 'edge:9', text: 'half-done' },
    });

    const resumed = await TraceRecorder.open(run.id);
    const replayed = await resumed.step({ kind: 'xr2.decompose', label: 'Decompose' }, async () => {
      executions++;
      return decomposition('changed');
    });
    expect(replayed).toEqual(decomposition('q1'));
    expect(executions).toBe(1);
    const revised = await resumed.step({ kind: 'regram.revise', label: 'Revise' }, async () => ({ head: 'a', relation: 'treats', tail: 'b' }));
    expect(revised).toEqual({ head: 'a', relation: 'treats', tail: 'b' });

    const steps = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect((steps[1].output as { error: string }).error).toMatch(/interrupted/);
    expect(await (await getPrisma()).evidence.count({ where: { runId: run.id } })).toBe(0);
  });

  it('a stored step marked replayChildren runs again on resume, its stored children (skipped ones too) replaying without a new row', async () => {
    const run = await newRun();
    let rounds = 0;
    let executions = 0;
    const weave = async (trace: TraceRecorder) => {
      let carried: unknown;
      await trace.step({ kind: 'bioweave.round', label: 'Round 1', replayChildren: true }, async (round) => {
        rounds++;
        carried = await trace.step({ kind: 'xr2.decompose', label: 'Decompose', parent: round }, async () => {
          executions++;
          return decomposition(`q${executions}`);
        });
        await trace.skipped({ kind: 'channel.web', label: 'Web search', parent: round }, 'web switch is off');
        return {
          round: 1,
          state: { attempts: {}, coverage: { capped: [], complete: [] } },
          decision: { decision: 'answer', reason: 'r', missingHop: null },
          usage: [],
        };
      });
      return carried;
    };
    const first = await TraceRecorder.open(run.id);
    expect(await weave(first)).toEqual(decomposition('q1'));
    await first.seal();

    const resumed = await TraceRecorder.open(run.id);
    // What the round carries on is made again from its child's stored output; the child does not run.
    expect(await weave(resumed)).toEqual(decomposition('q1'));
    await resumed.seal();
    expect([rounds, executions]).toEqual([2, 1]);
    const steps = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => [s.kind, s.status])).toEqual([
      ['bioweave.round', 'succeeded'],
      ['xr2.decompose', 'succeeded'],
      ['channel.web', 'skipped'],
    ]);
  });

  it("in a run's executor with a model, no step waits for its write: steps go on while their writes are held up, the writes land in order; the seal packs all", async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id, { everyStepWaits: false });
    const call = recordedCall('Q', 'A', null, 'openai');
    // Every trace write holds the run's row shared: a transaction holding it for update keeps them all waiting.
    const holder = await getPool().connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from runs where id = $1 for update', [run.id]);
      await trace.step({ kind: 'xr2.recall', label: 'Asked' }, async (step) => {
        await trace.callRecorder(step)(call);
        return { claims: [], note: null };
      });
      await trace.step({ kind: 'regram.revise', label: 'Offline work' }, async () => ({ head: 'a', relation: 'r', tail: 'b' }));
      // Both steps ended, nothing is stored yet.
      expect(await (await getPrisma()).step.count({ where: { runId: run.id } })).toBe(0);
      await holder.query('commit');
    } finally {
      holder.release();
    }
    await trace.seal();
    const rows = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(rows.map((r) => [r.label, r.status, r.output])).toEqual([
      ['Asked', 'succeeded', null],
      ['Offline work', 'succeeded', null],
    ]);
    expect(await (await getPrisma()).tracePack.count({ where: { runId: run.id } })).toBe(1);
    const read = await readTrace(run.id);
    expect(read.steps.map((s) => s.output)).toEqual([
      { claims: [], note: null },
      { head: 'a', relation: 'r', tail: 'b' },
    ]);
    expect((await readCalls(run.id)).map((c) => [c.output, c.cached])).toEqual([['A', false]]);
  });

  it("a crash between a model call and its step's write loses no completed step; the write refused fails the old attempt, and the resumed run gets the call's answer from the response cache, not the model", async () => {
    const recall = JSON.stringify({ claims: [{ statement: 'aspirin inhibits COX-1', confidence: 0.9 }] });
    const server = await startScriptedOpenAIServer(() => reply.ok(recall));
    const backend = new OpenAIBackend({ baseUrl: server.baseUrl, model: `crash-${randomUUID()}`, timeoutMs: 5_000, cache: new PostgresResponseCache() });
    const model = new ModelClient(backend);
    try {
      const run = await (await getPrisma()).run.update({ where: { id: (await newRun()).id }, data: { attempts: 1 } });
      let executions = 0;
      const ask = (trace: TraceRecorder, label: string, question: string, during?: () => Promise<unknown>) =>
        trace.step({ kind: 'xr2.recall', label }, async (step) => {
          executions++;
          const result = await model.call(recallTemplate, { question, entities: [] }, { recorder: trace.callRecorder(step) });
          await during?.();
          return { claims: [], note: result.text };
        });

      const first = await TraceRecorder.open(run.id, { fresh: true, everyStepWaits: false, lease: 1 });
      await ask(first, 'First', 'What does aspirin inhibit?');
      await until(async () => (await getPrisma()).step.findFirst({ where: { runId: run.id, label: 'First', status: 'succeeded' } }));
      // The worker dies after the second call answered, before its step's write: recovery hands the run to a second attempt.
      await ask(first, 'Second', 'What does ibuprofen inhibit?', async () => (await getPrisma()).run.update({ where: { id: run.id }, data: { attempts: 2 } }));
      await expect(first.flush()).rejects.toBeInstanceOf(RunLeaseLostError);
      expect(server.requests).toHaveLength(2);
      // The answer is in the response cache as soon as it arrived (written behind it).
      await until(async () => (await getPool().query('select 1 from model_cache where model = $1', [backend.describe().model])).rowCount === 2 || null);

      const resumed = await TraceRecorder.open(run.id, { everyStepWaits: false, lease: 2 });
      expect(await ask(resumed, 'First', 'What does aspirin inhibit?')).toEqual({ claims: [], note: recall });
      expect(await ask(resumed, 'Second', 'What does ibuprofen inhibit?')).toEqual({ claims: [], note: recall });
      await resumed.seal();
      expect(executions).toBe(3);
      expect(server.requests).toHaveLength(2);
      const steps = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
      expect(steps.map((s) => [s.label, s.status])).toEqual([
        ['First', 'succeeded'],
        ['Second', 'failed'],
        ['Second', 'succeeded'],
      ]);
      expect((await readCalls(run.id)).map((c) => c.cached)).toEqual([false, true]);
    } finally {
      await server.close();
    }
  });

  it('stops at the next step once the run is cancelled', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    await (await getPrisma()).run.update({ where: { id: run.id }, data: { status: 'cancelled' } });
    await expect(trace.step({ kind: 'regram.revise', label: 'X' }, async () => null)).rejects.toBeInstanceOf(RunCancelledError);
  });

  it.each([
    ['with a model', true],
    ['with the offline engine', false],
  ])("in a run's executor %s, the status is read behind the steps: a cancellation stops a later step, not the one that read it", async (_, slowModel) => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id, { everyStepWaits: false, slowModel });
    await (await getPrisma()).run.update({ where: { id: run.id }, data: { status: 'cancelled' } });
    // The first step starts the status read and runs on without waiting for it.
    expect(await trace.step({ kind: 'regram.revise', label: 'X' }, async () => null)).toBeNull();
    await expect
      .poll(() =>
        trace
          .step({ kind: 'regram.revise', label: 'X' }, async () => null)
          .then(
            () => null,
            (error: unknown) => error,
          ),
      )
      .toBeInstanceOf(RunCancelledError);
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
    const pool = await trace.step({ kind: 'channel.kg', label: 'Candidates' }, async (step) => trace.addEvidence(step, candidates));
    const table = await trace.step({ kind: 'channel.doc', label: 'Top 5', input: { pool } }, async () => {
      await trace.markSelected(pool.slice(0, 5).map((r) => r.id));
      const calibration = { threshold: 0, negatives: 0, documents: 0, method: 'none' };
      return { result: 'relevant passages' as const, entities: [], calibration, passages: pool.slice(0, 5), withheld: pool.slice(5) };
    });

    // Storage: 5 rows of evidence (the selected), the 40 candidates once, as one pool on their step.
    const prisma = await getPrisma();
    expect(await prisma.evidence.count({ where: { runId: run.id } })).toBe(5);
    // The rows say which records were used, where and what (ref, kind); their text and data are the pool's, not stored twice.
    expect((await prisma.evidence.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } })).map((e) => [e.ref, e.selected, e.text, e.data])).toEqual(
      candidates.slice(0, 5).map((c) => [c.ref, true, '', null]),
    );
    const steps = await prisma.step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(unpack(steps[0].evidencePool)).toHaveLength(40);
    // One compact record (field names once, then compressed): a fraction of the candidates' size.
    expect(JSON.stringify(steps[0].evidencePool).length).toBeLessThan(JSON.stringify(candidates).length / 3);
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
    const replayed = await resumed.step({ kind: 'channel.kg', label: 'Candidates' }, async () => {
      throw new Error('must replay');
    });
    expect(replayed).toEqual(JSON.parse(JSON.stringify(pool)));
  });

  it("packs a run's trace when it ends: rows keep their place, every body reads back as it was; a step still running, and steps after, stay rows", async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    const candidates = Array.from({ length: 40 }, (_, i) => ({
      channel: 'kg' as const,
      kind: 'triple' as const,
      ref: `edge:${i}`,
      text: `gene ${i} – associates – disease`,
      scores: { sim: i / 40 },
    }));
    await trace.skipped({ kind: 'channel.doc', label: 'Documents' }, 'doc switch is off');
    const pool = await trace.step({ kind: 'channel.kg', label: 'Candidates' }, async (step) => trace.addEvidence(step, candidates));
    await trace.step({ kind: 'xr2.recall', label: 'Recall', input: { pool: pool.slice(0, 3), long: 'x'.repeat(3000) } }, async (step) => {
      await trace.markSelected([pool[0].id]);
      await trace.callRecorder(step)(call(`Q1\n${EVIDENCE}`, '{"answer": "IL7R"}', { answer: 'IL7R' }));
      await trace.callRecorder(step)(call(`Q2\n${EVIDENCE}`, 'IL7R, probably 🧬', { answer: 'IL7R' }));
      return { claims: [], note: 'recalled' };
    });
    let finish!: () => void;
    const still = trace.step(
      { kind: 'regram.revise', label: 'Still running' },
      () => new Promise<{ head: string; relation: string; tail: string }>((r) => (finish = () => r({ head: 'a', relation: 'treats', tail: 'b' }))),
    );
    const views = async () => {
      const read = await readTrace(run.id);
      return { read, calls: await readCalls(run.id), step: await readStep(run.id, read.steps[2].id), timings: await callTimings(run.id) };
    };
    await until(async () => (await getPrisma()).step.findFirst({ where: { runId: run.id, label: 'Still running' } }));
    const before = await views();

    await trace.seal();
    const prisma = await getPrisma();
    const rows = await prisma.step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(rows.map((r) => [r.status, r.input === null, r.output === null, r.evidencePool === null])).toEqual([
      ['skipped', true, true, true],
      ['succeeded', true, true, true],
      ['succeeded', true, true, true],
      ['running', false, true, true],
    ]);
    expect((await prisma.modelCall.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } })).map((c) => [c.messages, c.output])).toEqual([
      [{ $pack: [`Q1\n${EVIDENCE}`.length, 18] }, null],
      // Lengths in characters as PostgreSQL counts them (the emoji is one), which the timeline reads as it read them from the bodies.
      [{ $pack: [`Q2\n${EVIDENCE}`.length, 16] }, null],
    ]);
    expect(await prisma.tracePack.count({ where: { runId: run.id } })).toBe(1);
    // Every view reads the same trace as before the pack.
    expect(await views()).toEqual(before);

    // The step still running ends after the pack, a resumed run replays packed steps, and a later pack joins the first.
    finish();
    await still;
    expect((await readTrace(run.id)).steps[3]).toMatchObject({ status: 'succeeded', output: { head: 'a' } });
    const resumed = await TraceRecorder.open(run.id);
    expect(await resumed.step({ kind: 'channel.kg', label: 'Candidates' }, async () => [])).toEqual(JSON.parse(JSON.stringify(pool)));
    await trace.seal();
    expect(await prisma.tracePack.count({ where: { runId: run.id } })).toBe(2);
    const after = await readTrace(run.id);
    expect(after.steps.slice(0, 3)).toEqual(before.read.steps.slice(0, 3));
    expect(after.evidence).toEqual(before.read.evidence);
    // What the bench counts for the run: its rows and its pack, a fraction of the bodies as they were given.
    const {
      rows: [size],
    } = await getPool().query<{ bytes: number }>(`select (select sum(pg_column_size(p.*)) from trace_packs p where p.run_id = $1)::int bytes`, [run.id]);
    expect(size.bytes).toBeLessThan(JSON.stringify([candidates, EVIDENCE, EVIDENCE]).length / 4);
  });

  it('with the offline engine writes what it held and the pack in one statement: bodies are stored once, in the pack, and read back as recorded', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id);
    const statements: string[] = [];
    const pool = getPool();
    const query = pool.query.bind(pool);
    const candidates = Array.from({ length: 30 }, (_, i) => ({
      channel: 'kg' as const,
      kind: 'triple' as const,
      ref: `edge:${i}`,
      text: `gene ${i} – associates – asthma`,
      scores: { sim: i / 30 },
    }));
    // A step long enough to be written as running first: its end is held, then sealed.
    let finish!: () => void;
    const slow = trace.step(
      { kind: 'regram.revise', label: 'Slow', input: { long: 'y'.repeat(2000) } },
      () => new Promise<{ head: string; relation: string; tail: string }>((r) => (finish = () => r({ head: 'a', relation: 'treats', tail: 'b' }))),
    );
    await until(async () => (await getPrisma()).step.findFirst({ where: { runId: run.id, label: 'Slow' } }));
    finish();
    await slow;
    const found = await trace.step({ kind: 'channel.kg', label: 'Candidates' }, async (step) => trace.addEvidence(step, candidates));
    await trace.step({ kind: 'xr2.recall', label: 'Recall', input: { pool: found.slice(0, 2), long: 'x'.repeat(3000) } }, async () => ({
      claims: [],
      note: 'recalled',
    }));
    (pool as { query: unknown }).query = (...args: Parameters<typeof query>) => {
      statements.push(String(args[0]));
      return query(...args);
    };
    try {
      await trace.seal();
    } finally {
      (pool as { query: unknown }).query = query;
    }
    expect(statements).toHaveLength(1);
    const rows = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(rows.map((r) => [r.label, r.status, r.input, r.output, r.evidencePool])).toEqual([
      ['Slow', 'succeeded', null, null, null],
      ['Candidates', 'succeeded', null, null, null],
      ['Recall', 'succeeded', null, null, null],
    ]);
    expect(await (await getPrisma()).tracePack.count({ where: { runId: run.id } })).toBe(1);
    const read = await readTrace(run.id);
    expect(read.steps.map((s) => s.input)).toMatchObject([
      { long: 'y'.repeat(2000) },
      {},
      { pool: JSON.parse(JSON.stringify(found.slice(0, 2))), long: 'x'.repeat(3000) },
    ]);
    expect(read.steps[0].output).toEqual({ head: 'a', relation: 'treats', tail: 'b' });
    expect(read.evidence.map((e) => e.ref)).toEqual(candidates.map((c) => c.ref));
  });

  it('fails a step whose output breaks its contract under test, and otherwise records it flagged with the issue', async () => {
    const broken = { subquestions: 'not a list', constraints: [], required_evidence: [], current: 'q' } as unknown as ReturnType<typeof decomposition>;
    const strict = await TraceRecorder.open((await newRun()).id);
    await expect(strict.step({ kind: 'xr2.decompose', label: 'Decompose' }, async () => broken)).rejects.toBeInstanceOf(StepContractError);

    const run = await newRun();
    const lenient = await TraceRecorder.open(run.id, { strictContracts: false });
    expect(await lenient.step({ kind: 'xr2.decompose', label: 'Decompose' }, async () => broken)).toBe(broken);
    const [step] = await (await getPrisma()).step.findMany({ where: { runId: run.id } });
    expect(step).toMatchObject({ status: 'succeeded', output: broken });
    expect(step.contractIssue).toMatch(/subquestions/);
    // The run views read the flag with the step.
    expect((await readTrace(run.id)).steps[0].contractIssue).toMatch(/subquestions/);
  });

  it("stores a step's output when its write goes out, as the step returned it: held until the next call's request is out, checked then, and under test a write fails when the output changed meanwhile", async () => {
    const broken = { subquestions: 'not a list', constraints: [], required_evidence: [], current: 'q' } as unknown as ReturnType<typeof decomposition>;
    const run = await newRun();
    const lenient = await TraceRecorder.open(run.id, { strictContracts: false, everyStepWaits: false });
    await lenient.step({ kind: 'xr2.decompose', label: 'Decompose' }, async () => broken);
    // Held (a model run's writes wait for the next call's request): nothing of the step is stored yet.
    expect(await (await getPrisma()).step.findMany({ where: { runId: run.id } })).toEqual([]);
    await lenient.flush();
    const [step] = await (await getPrisma()).step.findMany({ where: { runId: run.id } });
    expect(step).toMatchObject({ status: 'succeeded', output: broken });
    expect(step.contractIssue).toMatch(/subquestions/);

    const strict = await TraceRecorder.open((await newRun()).id, { everyStepWaits: false });
    const output = await strict.step({ kind: 'regram.revise', label: 'Revise' }, async () => ({ head: 'a', relation: 'treats', tail: 'b' }));
    output.tail = 'c';
    await expect(strict.flush()).rejects.toThrow(/step 0 \(regram\.revise\): its output changed after the step returned/);
  });

  it("with the offline engine, a run that outlives the hold stores its ended steps' bodies once, in a pack of their own: no row holds them, a resume replays them, the seal packs the rest", async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id, { slowModel: false, everyStepWaits: false });
    const long = 'z'.repeat(3000);
    const found = await trace.step({ kind: 'channel.kg', label: 'Candidates', input: { long } }, async (step) =>
      trace.addEvidence(
        step,
        [0, 1, 2].map((i) => ({ channel: 'kg' as const, kind: 'triple' as const, ref: `edge:${i}`, text: `gene ${i} – associates – asthma` })),
      ),
    );
    let finish!: () => void;
    const slow = trace.step(
      { kind: 'regram.revise', label: 'Slow', input: { pool: found.slice(0, 2) } },
      () => new Promise<{ head: string; relation: string; tail: string }>((r) => (finish = () => r({ head: 'a', relation: 'treats', tail: 'b' }))),
    );
    // The hold ends while Slow runs: Candidates ended (its bodies go to a pack), Slow is written running (its input in its row).
    await until(async () => (await getPrisma()).tracePack.findFirst({ where: { runId: run.id } }));
    const held = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(held.map((r) => [r.label, r.status, r.input === null, r.output, r.evidencePool])).toEqual([
      ['Candidates', 'succeeded', true, null, null],
      ['Slow', 'running', false, null, null],
    ]);
    const midway = await readTrace(run.id);
    expect(midway.steps[0].input).toMatchObject({ long });
    expect(midway.steps[0].output).toEqual(JSON.parse(JSON.stringify(found)));
    expect(midway.evidence.map((e) => e.ref)).toEqual(['edge:0', 'edge:1', 'edge:2']);

    // A crash now: the resumed run replays Candidates from the pack and makes Slow again.
    const resumed = await TraceRecorder.open(run.id, { slowModel: false, everyStepWaits: false });
    let again = 0;
    const replayed = await resumed.step({ kind: 'channel.kg', label: 'Candidates', input: { long } }, async () => {
      again++;
      return [];
    });
    expect(again).toBe(0);
    expect(replayed).toEqual(JSON.parse(JSON.stringify(found)));
    await resumed.step({ kind: 'regram.revise', label: 'Slow', input: { pool: replayed.slice(0, 2) } }, async () => ({
      head: 'a',
      relation: 'treats',
      tail: 'c',
    }));
    await resumed.seal();
    finish();
    await slow.catch(() => undefined);

    const rows = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(rows.map((r) => [r.label, r.status, r.input, r.output, r.evidencePool])).toEqual([
      ['Candidates', 'succeeded', null, null, null],
      ['Slow', 'failed', { __key: '/regram.revise:Slow#0', pool: { $evs: [[0, 1]] } }, { error: 'interrupted: the server stopped during this step' }, null],
      ['Slow', 'succeeded', null, null, null],
    ]);
    expect(await (await getPrisma()).tracePack.count({ where: { runId: run.id } })).toBe(2);
    const read = await readTrace(run.id);
    expect(read.steps.map((s) => s.output)).toEqual([
      JSON.parse(JSON.stringify(found)),
      { error: 'interrupted: the server stopped during this step' },
      { head: 'a', relation: 'treats', tail: 'c' },
    ]);
    expect(read.steps[2].input).toMatchObject({ pool: JSON.parse(JSON.stringify(found.slice(0, 2))) });
  });

  it('with the offline engine writes steps behind them: all are stored by the flush, and a write that failed fails the flush and the next step', async () => {
    const run = await newRun();
    const trace = await TraceRecorder.open(run.id, { slowModel: false });
    for (const i of [0, 1, 2]) {
      await trace.step({ kind: 'regram.revise', label: `Revise ${i}` }, async (step) => {
        await trace.addEvidence(step, [{ channel: 'kg', kind: 'triple', ref: `edge:${i}`, text: `fact ${i}`, selected: i === 1 }]);
        return { head: `h${i}`, relation: 'r', tail: 't' };
      });
    }
    await trace.flush();
    const steps = await (await getPrisma()).step.findMany({ where: { runId: run.id }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => [s.label, s.status])).toEqual([0, 1, 2].map((i) => [`Revise ${i}`, 'succeeded']));
    expect((await readTrace(run.id)).evidence.map((e) => [e.text, e.selected])).toEqual([
      ['fact 0', false],
      ['fact 1', true],
      ['fact 2', false],
    ]);

    // The run's row is gone, so its trace cannot be written: the step itself does not wait, the flush and the next step fail.
    const gone = await newRun();
    const behind = await TraceRecorder.open(gone.id, { slowModel: false });
    await (await getPrisma()).run.delete({ where: { id: gone.id } });
    expect(await behind.step({ kind: 'regram.revise', label: 'Revise' }, async () => ({ head: 'a', relation: 'r', tail: 'b' }))).toEqual({
      head: 'a',
      relation: 'r',
      tail: 'b',
    });
    await expect(behind.flush()).rejects.toThrow();
    await expect(behind.step({ kind: 'regram.revise', label: 'Revise again' }, async () => null)).rejects.toThrow();
  });

  it('records evidence retrieved again once: a KG record the same in every field, a passage by reference, text and selectability; one field apart is a record of its own, also after a resume', async () => {
    const run = await newRun();
    const data = (edgeId: number) => ({ edgeId, sourceId: 'Gene::1', sourceName: 'IL2RA', metaedge: 'GaD', targetId: 'Disease::1', targetName: 'MS' });
    const kg = (over: Record<string, unknown> = {}) => ({
      channel: 'kg' as const,
      kind: 'triple' as const,
      ref: 'edge:7',
      text: 'IL2RA – associates – MS',
      data: data(7),
      scores: { sim: 0.5 },
      ...over,
    });
    const passage = (over: Record<string, unknown> = {}) => ({
      channel: 'doc' as const,
      kind: 'passage' as const,
      ref: 'passage:d:0-10',
      text: 'IL2RA in MS.',
      data: { relevance: 'entity' },
      ...over,
    });
    const variants = [
      kg({ data: { ...data(7), sourceName: undefined, sourceName2: 'x' } }),
      kg({ data: data(8) }),
      kg({ scores: { sim: 0.25 } }),
      kg({ scores: { sim: 0.5, mmr: null } }),
      kg({ text: 'IL2RA – associates – multiple sclerosis' }),
      kg({ kind: 'path' }),
      kg({ ref: 'edge:8' }),
      kg({ data: Object.assign({ targetName: 'MS' }, data(7)) }), // the same fields in another order: another JSON text
      passage({ data: { relevance: 'score' } }), // withheld: a record of its own
      passage({ text: 'IL2RA in multiple sclerosis.' }),
      passage({ channel: 'web', kind: 'web' }),
    ];
    const trace = await TraceRecorder.open(run.id);
    const first = await trace.step({ kind: 'channel.kg', label: 'Read' }, async (step) => trace.addEvidence(step, [kg(), passage(), ...variants]));
    // Again, in another step: copies made anew, undefined fields and a scored passage's data aside.
    const again = await trace.step({ kind: 'channel.kg', label: 'Read again' }, async (step) =>
      trace.addEvidence(step, [
        kg({ data: { ...data(7), extra: undefined } }),
        passage({ data: { relevance: 'entity' }, scores: { bm25: 2 } }),
        ...variants.map((v) => structuredClone(v)),
      ]),
    );
    expect(new Set(first.map((r) => r.id)).size).toBe(variants.length + 2);
    expect(again.map((r) => r.id)).toEqual(first.map((r) => r.id));
    await trace.seal();
    // A resumed run knows them too: each is the record it read back.
    const resumed = await TraceRecorder.open(run.id);
    const later = await resumed.step({ kind: 'channel.kg', label: 'Read after resume' }, async (step) =>
      resumed.addEvidence(step, [kg(), ...variants, kg({ data: data(9) })]),
    );
    expect(later.slice(0, -1).map((r) => r.id)).toEqual([first[0].id, ...first.slice(2).map((r) => r.id)]);
    expect(first.map((r) => r.id)).not.toContain(later.at(-1)!.id);
    await resumed.seal();
    expect((await readTrace(run.id)).evidence).toHaveLength(variants.length + 3);
  });

  it("knows each run's current step through awaits, with runs interleaved and one run's step called inside another's", async () => {
    const [a, b] = await Promise.all([newRun(), newRun()]);
    const [ta, tb] = await Promise.all([TraceRecorder.open(a.id), TraceRecorder.open(b.id)]);
    const revise = (label: string) => ({ kind: 'regram.revise' as const, label });
    const triple = { head: 'h', relation: 'r', tail: 't' };
    const seen: string[] = [];
    const look = (who: string) => seen.push(`${who}: ${ta.currentStep()?.label ?? '-'} / ${tb.currentStep()?.label ?? '-'}`);
    await Promise.all([
      ta.step(revise('A1'), async () => {
        await new Promise((r) => setTimeout(r, 20));
        look('in A1');
        // Run B's step started from inside run A's: each recorder sees its own step.
        await tb.step(revise('B2'), async () => {
          await Promise.resolve();
          look('in B2');
          return triple;
        });
        look('back in A1');
        return triple;
      }),
      tb.step(revise('B1'), async () => {
        await new Promise((r) => setTimeout(r, 10));
        look('in B1');
        return triple;
      }),
    ]);
    look('outside');
    expect(seen).toEqual(['in B1: - / B1', 'in A1: A1 / -', 'in B2: A1 / B2', 'back in A1: A1 / -', 'outside: - / -']);
  });
});
