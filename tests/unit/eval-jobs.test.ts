import { describe, expect, it } from 'vitest';
import { familyTable, scoreCell, summarise } from '@/lib/eval/jobs/aggregate';
import type { ScoredItem } from '@/lib/eval/jobs/schemas';
import { sampleQuestions } from '@/lib/eval/jobs/create';
import { toCsv } from '@/lib/eval/jobs/export';
import { configKey, parseGrid } from '@/lib/eval/jobs/grid';
import { cellState, matrixColumns, matrixRows } from '@/lib/eval/jobs/matrix';
import { attributionSummary, isAttributable, questionBuckets } from '@/lib/eval/jobs/buckets';
import { rateOf } from '@/lib/eval/jobs/progress';
import { outcomeOf } from '@/lib/eval/jobs/record';
import { tokenTotals } from '@/lib/runs/call-tokens';
import type { ItemOutcome } from '@/lib/eval/jobs/schemas';
import { FULL_SWITCHES } from '@/lib/channels/switches';

const outcome = (fields: Partial<ItemOutcome>): ItemOutcome => ({
  status: 'succeeded',
  correct: true,
  abstained: false,
  grounding: null,
  steps: 4,
  iterations: null,
  calls: 2,
  tokensIn: 100,
  tokensOut: 20,
  wallMs: 50,
  answer: 'x',
  error: null,
  ...fields,
});

let n = 0;
const item = (fields: Partial<ScoredItem>): ScoredItem => ({
  questionId: `q${n++}`,
  method: 'xr2',
  configKey: 'full',
  family: null,
  answerType: 'mcq',
  runId: `r${n}`,
  outcome: outcome({}),
  ...fields,
});

describe('switch grid', () => {
  it('reads configurations, several channels off joined by +, and keeps the order given', () => {
    expect(parseGrid('full,kg=0,entity=0,param=0').map((c) => c.key)).toEqual(['full', 'kg=0', 'entity=0', 'param=0']);
    const [both] = parseGrid('param=0+kg=0');
    expect(both).toEqual({ key: 'kg=0+param=0', switches: { ...FULL_SWITCHES, kg: false, param: false }, kgShuffle: false });
  });

  it('gives equal configurations one key however they are written, and drops repeats', () => {
    expect(parseGrid(['full', 'all', 'kg=1', '-kg', 'kg=off']).map((c) => c.key)).toEqual(['full', 'kg=0']);
  });

  it('expands the presets and reads doc-only and the KG shuffle control', () => {
    expect(parseGrid('xr2').map((c) => c.key)).toEqual(['full', 'kg=0', 'entity=0', 'param=0', 'doc-only']);
    expect(parseGrid('single-off')).toHaveLength(6);
    const [shuffled] = parseGrid('full+shuffle');
    expect(shuffled).toMatchObject({ key: 'full+shuffle', kgShuffle: true, switches: FULL_SWITCHES });
    expect(configKey({ doc: true, entity: false, kg: false, param: false, web: false, aids: false })).toBe('doc-only');
  });

  it('refuses unknown channels and an empty grid, naming the culprit', () => {
    expect(() => parseGrid('full,graph=0')).toThrow(/graph=0.*Unknown channel "graph"/);
    expect(() => parseGrid(' , ')).toThrow(/empty/);
  });
});

describe('seeded sample', () => {
  const ids = Array.from({ length: 100 }, (_, i) => `q${i}`);

  it('draws the same questions for the same seed, in set order', () => {
    const a = sampleQuestions(ids, 10, 's1');
    expect(a).toEqual(sampleQuestions(ids, 10, 's1'));
    expect(a).toHaveLength(10);
    expect(new Set(a).size).toBe(10);
    expect([...a].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1)))).toEqual(a);
    expect(sampleQuestions(ids, 10, 's2')).not.toEqual(a);
  });

  it('takes the whole set without a limit or with a limit past its size', () => {
    expect(sampleQuestions(ids, undefined, 's')).toEqual(ids);
    expect(sampleQuestions(ids, 500, 's')).toEqual(ids);
  });
});

describe('item outcome from its run', () => {
  const run = {
    status: 'succeeded' as const,
    correct: true,
    answer: { text: 'Metformin', abstained: false, extra: { iterations: 3 } },
    scores: { abstained: false, grounding: 0.5 },
    cost: { modelCalls: 7, tokensIn: 900, tokensOut: 80, wallMs: 1234.4 },
    error: null,
    steps: 12,
  };

  it('keeps the score, the grounding, the iterations the method reports and the cost', () => {
    expect(outcomeOf(run, true)).toEqual({
      status: 'succeeded',
      correct: true,
      abstained: false,
      grounding: 0.5,
      steps: 12,
      iterations: 3,
      calls: 7,
      tokensIn: 900,
      tokensOut: 80,
      wallMs: 1234,
      answer: 'Metformin',
      error: null,
    });
  });

  it("takes the run's call token totals when given: an offline run's estimates, flagged, rather than its zero cost", () => {
    const offline = { ...run, cost: { modelCalls: 2, tokensIn: 0, tokensOut: 0, wallMs: 10 } };
    const calls = [
      { tokensIn: 120, tokensOut: 8, tokensEstimated: true },
      { tokensIn: 30, tokensOut: 2, tokensEstimated: true },
    ];
    expect(outcomeOf(offline, true, tokenTotals(calls))).toMatchObject({ calls: 2, tokensIn: 150, tokensOut: 10, tokensEstimated: true });
    expect(outcomeOf(run, true, tokenTotals([{ tokensIn: 900, tokensOut: 80, tokensEstimated: false }]))).not.toHaveProperty('tokensEstimated');
  });

  it('counts a failed run as wrong when the question has gold, unscored when not', () => {
    const failed = { ...run, status: 'failed' as const, correct: null, answer: null, scores: null, error: 'boom' };
    expect(outcomeOf(failed, true)).toMatchObject({ status: 'failed', correct: false, abstained: false, answer: null, error: 'boom', calls: 7 });
    expect(outcomeOf(failed, false).correct).toBeNull();
  });
});

describe('scores per method × configuration', () => {
  it('computes accuracy over scored items, abstain rate, grounding over answers with claims, and mean cost', () => {
    const items = [
      item({ outcome: outcome({ correct: true, grounding: 1, steps: 2, calls: 1, wallMs: 10 }) }),
      item({ outcome: outcome({ correct: false, abstained: true, grounding: null, steps: 4, calls: 3, wallMs: 30 }) }),
      item({ outcome: outcome({ status: 'failed', correct: false, steps: 0, calls: 0, wallMs: 5 }) }),
      item({ outcome: outcome({ correct: null, grounding: 0.5, steps: 6, calls: 2, wallMs: 15 }) }),
      item({ outcome: null, runId: null }),
    ];
    const s = scoreCell('xr2', 'full', items);
    // The abstention and the failed run count against accuracy, but neither is "wrong".
    expect(s).toMatchObject({ items: 5, finished: 4, scored: 3, correct: 1, wrong: 0, errors: 1, abstained: 1 });
    expect(scoreCell('xr2', 'full', [...items, item({ outcome: outcome({ correct: false }) })]).wrong).toBe(1);
    expect(s.accuracy).toBeCloseTo(1 / 3);
    expect(s.abstainRate).toBeCloseTo(1 / 4);
    expect(s.grounding).toBeCloseTo(0.75);
    expect(s.avgSteps).toBe(3);
    expect(s.avgCalls).toBe(1.5);
    expect(s.avgWallMs).toBe(15);
    expect(s.avgIterations).toBeNull();
  });

  it('has no accuracy before anything is scored', () => {
    expect(scoreCell('xr2', 'full', [item({ outcome: null })]).accuracy).toBeNull();
  });

  it('lists cells in the job order, and cost points only for scored cells', () => {
    const items = [item({ method: 'direct', configKey: 'kg=0' }), item({ method: 'xr2', configKey: 'full', outcome: null })];
    const summary = summarise(items, ['xr2', 'direct'], parseGrid('full,kg=0'));
    expect(summary.scores.map((s) => `${s.method}/${s.config}`)).toEqual(['xr2/full', 'xr2/kg=0', 'direct/full', 'direct/kg=0']);
    expect(summary.cost).toEqual([{ method: 'direct', config: 'kg=0', accuracy: 1, avgCalls: 2, avgTokens: 120, tokensEstimated: false, avgWallMs: 50 }]);
  });
});

describe('per-family table', () => {
  /** Items that give `acc` (in %) over 1000 questions of one family and answer type. */
  const cell = (family: string, answerType: string, acc: number) =>
    Array.from({ length: 1000 }, (_, i) => item({ family, answerType, outcome: outcome({ correct: i < acc * 10 }) }));

  it("reproduces BioMedHop's Overall Avg: the mean of family averages, each the macro average of its renderings", () => {
    // Table 4, IO row: Entity Pair 23.0/2.4, Intersection 34.0/9.3, Path 26.7/25.5, Counting 12.5 → 18.2.
    const items = [
      ...cell('shared_neighbor', 'mcq', 23.0),
      ...cell('shared_neighbor', 'open', 2.4),
      ...cell('intersection', 'mcq', 34.0),
      ...cell('intersection', 'open', 9.3),
      ...cell('path', 'mcq', 26.7),
      ...cell('path', 'open', 25.5),
      ...cell('count', 'count', 12.5),
    ];
    const { columns, rows } = familyTable(items, ['xr2'], ['full']);
    expect(columns).toEqual([
      { family: 'count', answerTypes: ['count'] },
      { family: 'intersection', answerTypes: ['mcq', 'open'] },
      { family: 'path', answerTypes: ['mcq', 'open'] },
      { family: 'shared_neighbor', answerTypes: ['mcq', 'open'] },
    ]);
    const [row] = rows;
    expect(row.cells.shared_neighbor.open).toBeCloseTo(0.024);
    expect(row.familyAvg.shared_neighbor).toBeCloseTo(0.127);
    expect(row.familyAvg.intersection).toBeCloseTo(0.2165);
    expect(row.familyAvg.count).toBeCloseTo(0.125);
    expect(Math.round(row.overallAvg! * 1000) / 10).toBe(18.2);
  });

  it('leaves out answer types with nothing scored yet from the averages', () => {
    const items = [item({ family: 'path', answerType: 'mcq' }), item({ family: 'path', answerType: 'open', outcome: null })];
    const [row] = familyTable(items, ['xr2'], ['full']).rows;
    expect(row.cells.path).toEqual({ mcq: 1, open: null });
    expect(row.familyAvg.path).toBe(1);
  });
});

describe('attribution matrix', () => {
  it('tells pending, running, correct, wrong, abstained, unscored and failed cells apart', () => {
    expect(cellState(undefined)).toBe('pending');
    expect(cellState({ runId: null, outcome: null })).toBe('pending');
    expect(cellState({ runId: 'r', outcome: null })).toBe('running');
    expect(cellState({ runId: 'r', outcome: outcome({}) })).toBe('correct');
    expect(cellState({ runId: 'r', outcome: outcome({ correct: false }) })).toBe('wrong');
    expect(cellState({ runId: 'r', outcome: outcome({ correct: false, abstained: true }) })).toBe('abstained');
    expect(cellState({ runId: 'r', outcome: outcome({ correct: null }) })).toBe('unscored');
    expect(cellState({ runId: 'r', outcome: outcome({ status: 'cancelled', correct: false }) })).toBe('error');
  });

  it('aligns each question row with the method × configuration columns, with the run behind each cell', () => {
    const columns = matrixColumns(['xr2', 'direct'], ['full', 'kg=0']);
    const q = { questionId: 'Q', ordinal: 0, text: 't', family: null, answerType: 'mcq' };
    const items = [
      item({ questionId: 'Q', method: 'direct', configKey: 'kg=0', runId: 'run-dk', outcome: outcome({ correct: false }) }),
      item({ questionId: 'Q', method: 'xr2', configKey: 'full', runId: 'run-xf' }),
    ];
    const [row] = matrixRows([q], items, columns);
    expect(row.cells).toEqual([
      { runId: 'run-xf', state: 'correct' },
      { runId: null, state: 'pending' },
      { runId: null, state: 'pending' },
      { runId: 'run-dk', state: 'wrong' },
    ]);
  });
});

describe('X-R2 attribution over an evaluation', () => {
  const grid = parseGrid('xr2');
  /** One question's runs under one method: correctness per configuration key (null: run failed). */
  const runs = (questionId: string, method: string, correct: Record<string, boolean | null>) =>
    Object.entries(correct).map(([configKey, c]) =>
      item({
        questionId,
        method,
        configKey,
        runId: `${questionId}-${method}-${configKey}`,
        outcome: c === null ? outcome({ status: 'failed', correct: false }) : outcome({ correct: c }),
      }),
    );

  it('needs full and a single-channel-off or doc-only configuration', () => {
    expect(isAttributable(grid)).toBe(true);
    expect(isAttributable(parseGrid('full,doc-only'))).toBe(true);
    expect(isAttributable(parseGrid('full'))).toBe(false);
    expect(isAttributable(parseGrid('kg=0,param=0'))).toBe(false);
    expect(isAttributable(parseGrid('full,kg=0+param=0,full+shuffle'))).toBe(false);
    expect(questionBuckets(runs('q', 'xr2', { full: true }), ['xr2'], parseGrid('full'))).toEqual([]);
  });

  it('labels a question per method with the runs behind the label', () => {
    const items = [
      ...runs('q', 'xr2', { full: true, 'kg=0': false, 'entity=0': false, 'param=0': true, 'doc-only': false }),
      ...runs('q', 'direct', { full: false, 'kg=0': false, 'entity=0': false, 'param=0': false, 'doc-only': true }),
    ];
    expect(questionBuckets(items, ['xr2', 'direct'], grid)).toEqual([
      { method: 'xr2', bucket: 'needs-KG', reason: 'full is correct and kg off is not', runIds: ['q-xr2-full', 'q-xr2-kg=0'] },
      { method: 'direct', bucket: 'doc-sufficient', reason: 'the doc-only run is correct', runIds: ['q-direct-doc-only'] },
    ]);
  });

  it('does not read a failed run as a wrong answer', () => {
    const items = runs('q', 'xr2', { full: true, 'kg=0': null, 'entity=0': false, 'param=0': true, 'doc-only': false });
    expect(questionBuckets(items, ['xr2'], grid)[0]).toMatchObject({ bucket: 'needs-Entity', runIds: ['q-xr2-full', 'q-xr2-entity=0'] });
  });

  it("counts buckets per method and gives each method's full-configuration accuracy within X-R2's buckets", () => {
    const items = [
      ...runs('q1', 'xr2', { full: true, 'kg=0': false, 'entity=0': true, 'param=0': true, 'doc-only': false }),
      ...runs('q2', 'xr2', { full: true, 'kg=0': false, 'entity=0': true, 'param=0': true, 'doc-only': false }),
      ...runs('q3', 'xr2', { full: false, 'kg=0': false, 'entity=0': false, 'param=0': false, 'doc-only': false }),
      ...runs('q1', 'direct', { full: true, 'kg=0': true, 'entity=0': true, 'param=0': true, 'doc-only': true }),
      ...runs('q2', 'direct', { full: false, 'kg=0': false, 'entity=0': false, 'param=0': false, 'doc-only': false }),
      ...runs('q3', 'direct', { full: true, 'kg=0': true, 'entity=0': true, 'param=0': false, 'doc-only': false }),
    ];
    const summary = attributionSummary(items, ['direct', 'xr2'], grid)!;
    expect(summary.referenceMethod).toBe('xr2');
    expect(summary.counts.xr2).toEqual({ 'needs-KG': 2, 'needs-Entity': 0, 'needs-Parametric': 0, 'doc-sufficient': 0, unresolved: 1 });
    expect(summary.counts.direct).toEqual({ 'needs-KG': 0, 'needs-Entity': 0, 'needs-Parametric': 1, 'doc-sufficient': 1, unresolved: 1 });
    const needsKg = summary.bucketed.find((b) => b.bucket === 'needs-KG')!;
    expect(needsKg).toEqual({ bucket: 'needs-KG', instances: 2, accuracy: { direct: 0.5, xr2: 1 } });
    expect(summary.bucketed.find((b) => b.bucket === 'unresolved')).toEqual({ bucket: 'unresolved', instances: 1, accuracy: { direct: 1, xr2: 0 } });
    expect(summary.bucketed.find((b) => b.bucket === 'needs-Entity')!.accuracy).toEqual({ direct: null, xr2: null });
    // Without X-R2 the buckets come from the method that resolves the most questions (ties: job order).
    const withoutXr2 = items.map((i) => ({ ...i, method: i.method === 'xr2' ? 'cot' : i.method }));
    expect(attributionSummary(withoutXr2, ['direct', 'cot'], grid)!.referenceMethod).toBe('direct');
    const cotResolvesMore = withoutXr2.filter((i) => !(i.method === 'direct' && i.questionId === 'q1'));
    expect(attributionSummary(cotResolvesMore, ['direct', 'cot'], grid)!.referenceMethod).toBe('cot');
  });
});

describe('exports and progress', () => {
  it('writes RFC 4180 CSV', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x, y', 'say "hi"'],
          [null, 3],
          ['line\nbreak', true],
        ],
      ),
    ).toBe('a,b\r\n"x, y","say ""hi"""\r\n,3\r\n"line\nbreak",true\r\n');
  });

  it('measures the rate from recent finish times', () => {
    expect(rateOf([])).toBeNull();
    expect(rateOf([1000])).toBeNull();
    expect(rateOf([5000, 1000, 3000])).toBe(0.5);
  });
});
