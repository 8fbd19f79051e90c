import { describe, expect, it } from 'vitest';
import {
  buildCallTimings,
  buildRunView,
  buildStepDetail,
  documentIdsOf,
  questionSeeds,
  storedCost,
  type RunRow,
  type RunViewSource,
} from '@/lib/runs/view-builder';
import type { CallTimingRow, StoredCall, StoredEvidence, StoredStep } from '@/lib/trace/store';
import type { K2vReport } from '@/lib/trace/steps/k2v';

// The run view is built from what the stores read: these tests give it rows directly, no database.

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

function runRow(over: Partial<RunRow> = {}): RunRow {
  return {
    id: 'run1',
    shareId: 'share1',
    status: 'succeeded',
    backendKey: 'offline',
    method: 'xr2',
    questionText: 'What treats asthma?',
    questionId: null,
    input: { question: 'What treats asthma?', options: null, answerType: 'open', documentIds: ['d2', 'd1'], gold: { text: 'albuterol' } },
    config: {
      method: 'xr2',
      switches: { doc: true, entity: true, kg: true, param: true, web: true },
      params: { tMax: 1 },
      kgShuffle: null,
      backend: { backend: 'offline', model: 'offline' },
    },
    configHash: 'h',
    answer: { text: 'albuterol', abstained: false, claims: [], evidenceIds: [] },
    correct: true,
    scores: { correct: 1 },
    kgVersion: 'kg1',
    parent: null,
    configDiff: null,
    children: [{ id: 'run2', shareId: 'share2', status: 'queued', configDiff: [{ path: 'switches.kg', from: true, to: false }], createdAt: at(9) }],
    error: null,
    attempts: 1,
    createdAt: at(0),
    startedAt: at(1),
    finishedAt: at(5),
    ...over,
  };
}

function step(over: Partial<StoredStep> & Pick<StoredStep, 'id' | 'ordinal' | 'kind'>): StoredStep {
  return {
    parentStepId: null,
    label: over.kind,
    status: 'succeeded',
    input: null,
    output: null,
    startedAt: at(1),
    durationMs: 10,
    contractIssue: null,
    ...over,
  };
}

function evidence(id: string, stepId: string | null): StoredEvidence {
  return { id, ordinal: 0, stepId, channel: 'kg', kind: 'triple', ref: `edge:${id}`, text: id, data: null, scores: null, selected: true };
}

function timingRow(over: Partial<CallTimingRow> & Pick<CallTimingRow, 'id' | 'ordinal'>): CallTimingRow {
  return {
    stepId: 's1',
    role: 'reason',
    backend: 'openai',
    cached: false,
    latencyMs: 1000,
    startedAt: at(1),
    tokensIn: 100,
    tokensOut: 20,
    promptChars: 400,
    outputChars: 80,
    ...over,
  };
}

const cost = { modelCalls: 2, cachedCalls: 0, tokensIn: 1, tokensOut: 2, wallMs: 4000, stages: [] };

function source(over: Partial<RunViewSource> = {}): RunViewSource {
  return {
    run: runRow(),
    trace: {
      steps: [step({ id: 's1', ordinal: 0, kind: 'xr2.reason' }), step({ id: 's2', ordinal: 1, kind: 'xr2.check' })],
      evidence: [evidence('e1', 's1'), evidence('e2', 's1')],
    },
    calls: buildCallTimings([timingRow({ id: 'c1', ordinal: 0 }), timingRow({ id: 'c2', ordinal: 1, tokensIn: 5, tokensOut: 6 })]),
    cost,
    documents: [{ id: 'd2', title: 'Two' }],
    verifications: [],
    ...over,
  };
}

describe('the run view builder', () => {
  it("sums each step's model calls, tokens and evidence records into its summary", () => {
    const view = buildRunView(source());
    expect(view.steps.map((s) => [s.id, s.calls, s.tokensIn, s.tokensOut, s.evidence])).toEqual([
      ['s1', 2, 105, 26, 2],
      ['s2', 0, 0, 0, 0],
    ]);
    expect(view.steps[0].startedAt).toBe(at(1).toISOString());
  });

  it("reads the run's JSON columns through their schemas and writes dates as ISO strings", () => {
    const view = buildRunView(source());
    expect(view).toMatchObject({
      id: 'run1',
      shared: false,
      methodName: 'X-R2',
      input: { answerType: 'open', documentIds: ['d2', 'd1'], gold: { text: 'albuterol' } },
      config: { method: 'xr2', switches: { aids: false } },
      answer: { text: 'albuterol' },
      scores: { correct: 1 },
      cost,
      createdAt: at(0).toISOString(),
      finishedAt: at(5).toISOString(),
      waitingFor: null,
    });
    expect(view.children).toEqual([
      { id: 'run2', shareId: 'share2', status: 'queued', configDiff: [{ path: 'switches.kg', from: true, to: false }], createdAt: at(9).toISOString() },
    ]);
    // A parameter set away from the paper's default is listed beside the switches.
    expect(view.offDefaults).toContainEqual(expect.objectContaining({ name: 'tMax', value: 1 }));
  });

  it('shows a column that does not fit its schema as absent, not as a guess', () => {
    const view = buildRunView(source({ run: runRow({ config: { method: 'nope' }, input: 'garbage', answer: { text: 3 }, scores: [1, 2], configDiff: 'x' }) }));
    expect(view).toMatchObject({ config: null, plannedStages: {}, offDefaults: [], answer: null, scores: null, configDiff: null });
    expect(view.input).toEqual({ options: null, answerType: 'open', documentIds: [], gold: null });
    expect(documentIdsOf('garbage')).toEqual([]);
  });

  it('names the worker a queued run waits for', () => {
    expect(buildRunView(source({ run: runRow({ status: 'queued' }) })).waitingFor).toBe('a worker');
    expect(buildRunView(source({ run: runRow({ status: 'queued', backendKey: 'openai http://m.example/v1 big-model' }) })).waitingFor).toBe(
      'a worker with endpoint http://m.example/v1 and model big-model',
    );
  });

  it('shows verification reports without their run id (a permalink shows them)', () => {
    const report = { runId: 'run1', version: 2, passRate: 0.5 } as unknown as K2vReport;
    expect(buildRunView(source({ verifications: [report] })).verifications).toEqual([{ version: 2, passRate: 0.5 }]);
  });

  it('takes the stored cost of a finished run, and none that does not fit', () => {
    expect(storedCost(cost)).toEqual(cost);
    expect(storedCost({ modelCalls: 'two' })).toBeNull();
    expect(storedCost(null)).toBeNull();
  });
});

describe('call timings', () => {
  it('estimates the tokens of offline calls from their texts, and groups calls whose time in flight overlapped', () => {
    const timings = buildCallTimings([
      timingRow({ id: 'a', ordinal: 0, backend: 'offline', tokensIn: 0, tokensOut: 0, promptChars: 401, outputChars: 8 }),
      timingRow({ id: 'b', ordinal: 1, startedAt: at(1.5) }),
      timingRow({ id: 'c', ordinal: 2, startedAt: at(10) }),
    ]);
    expect(timings.map((t) => [t.id, t.tokensIn, t.tokensOut, t.tokensEstimated, t.concurrentGroup])).toEqual([
      ['a', 101, 2, true, 1],
      ['b', 100, 20, false, 1],
      ['c', 100, 20, false, null],
    ]);
  });
});

describe('step detail', () => {
  const call = (over: Partial<StoredCall>): StoredCall => ({
    id: 'c',
    stepId: 's1',
    ordinal: 0,
    role: 'reason',
    backend: 'offline',
    model: 'offline',
    template: 't',
    templateVersion: 1,
    messages: [{ role: 'user', content: 'x'.repeat(40) }],
    output: 'y'.repeat(12),
    parsed: undefined,
    tokensIn: 0,
    tokensOut: 0,
    latencyMs: 5,
    cached: false,
    attempts: 1,
    error: null,
    createdAt: at(2),
    ...over,
  });

  it("hides the replay key, estimates unreported tokens and sums the step's calls", () => {
    const detail = buildStepDetail(
      { step: step({ id: 's1', ordinal: 0, kind: 'xr2.reason', input: { q: 1, __key: 'k' }, output: { ok: true } }), evidence: 3 },
      [call({ id: 'c1' }), call({ id: 'c2', ordinal: 1, backend: 'openai', tokensIn: 7, tokensOut: 8 })],
    );
    expect(detail.step).toMatchObject({
      id: 's1',
      input: { q: 1 },
      output: { ok: true },
      calls: 2,
      tokensIn: 17,
      tokensOut: 11,
      tokensEstimated: true,
      evidence: 3,
    });
    expect(detail.calls.map((c) => [c.id, c.tokensIn, c.tokensOut, c.tokensEstimated, c.parsed, c.createdAt])).toEqual([
      ['c1', 10, 3, true, null, at(2).toISOString()],
      ['c2', 7, 8, false, null, at(2).toISOString()],
    ]);
    expect(detail.calls[0]).not.toHaveProperty('stepId');
  });
});

describe('question seeds', () => {
  const link = (nodeId: string, name: string) => ({ nodeId, name, kind: 'Disease', mention: name.toLowerCase(), method: 'exact', score: 1 });

  it("takes the entities linked in the question's own text, once each, and no other text's", () => {
    const seeds = questionSeeds(' What treats asthma? ', [
      { kind: 'channel.entity', status: 'succeeded', input: { text: 'What treats asthma?' }, output: { links: [link('D1', 'Asthma')], rejected: [] } },
      { kind: 'channel.entity', status: 'succeeded', input: { text: 'a sub-question' }, output: { links: [link('D2', 'Other')], rejected: [] } },
      { kind: 'channel.entity', status: 'failed', input: { text: 'What treats asthma?' }, output: { links: [link('D3', 'Failed')], rejected: [] } },
      { kind: 'channel.entity', status: 'succeeded', input: { text: 'What treats asthma?' }, output: [link('D1', 'Asthma')] },
    ]);
    expect(seeds).toEqual([{ nodeId: 'D1', name: 'Asthma', kind: 'Disease', mention: 'asthma', method: 'exact', score: 1 }]);
  });
});
