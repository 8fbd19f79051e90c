import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPrisma } from '@/lib/db/client';
import { generateQuestionSet } from '@/lib/eval/generate';
import {
  cancelEvalJob,
  createEvalJob,
  driveEvalJob,
  exportItems,
  exportJson,
  getEvalJobView,
  getMatrixPage,
  getQuestionDrilldown,
  itemsCsv,
  scoresCsv,
  startEvalWorkers,
} from '@/lib/eval/jobs';
import { SUMMARY_VERSION } from '@/lib/eval/jobs/aggregate';
import { configKey } from '@/lib/eval/jobs/grid';
import { tryLockJob } from '@/lib/eval/jobs/store/lock';
import { GoldAnswerSchema, scoreAnswer } from '@/lib/eval/scoring';
import { getQuestionSet } from '@/lib/eval/sets';
import type { MethodAnswer } from '@/lib/methods/types';
import { attribute } from '@/lib/methods/xr2/attribution';
import { stopQueue } from '@/lib/runs/queue';
import { RunConfigSchema, RunInputSchema } from '@/lib/runs/schemas';
import { createRun } from '@/lib/runs/service';
import { startRunWorkers } from '@/lib/runs/worker';
import { run as evalCli } from '../../scripts/cli/eval';

afterAll(async () => {
  await stopQueue();
  await closeDb();
});

const unique = () => randomUUID().slice(0, 8);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('an offline evaluation, end to end: 2 methods × 2 configurations on a generated set', () => {
  let jobId: string;
  let setName: string;

  beforeAll(async () => {
    setName = `eval-e2e-${unique()}`;
    await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'eval-e2e', count: 8 });
    const job = await createEvalJob({ set: setName, methods: 'direct,kg-rag', switches: 'full,kg=0', backend: 'offline', concurrency: 3 }, { lock: true });
    expect(job.total).toBe(8 * 2 * 2);
    jobId = job.id;
    expect(await driveEvalJob(jobId, { mode: 'inline', lock: job.lock })).toBe('finished');
  });

  it('made one run per question × method × configuration, each with the switches of its configuration', async () => {
    const prisma = await getPrisma();
    const [items, runs] = await Promise.all([prisma.evalItem.findMany({ where: { jobId } }), prisma.run.findMany({ where: { evalJobId: jobId } })]);
    expect(runs).toHaveLength(32);
    const runById = new Map(runs.map((r) => [r.id, r]));
    for (const item of items) {
      const run = runById.get(item.runId!)!;
      const config = RunConfigSchema.parse(run.config);
      expect(run.status).toBe('succeeded');
      expect(run.questionId).toBe(item.questionId);
      expect(run.method).toBe(item.method);
      expect(configKey(config.switches, !!config.kgShuffle)).toBe(item.configKey);
      expect(config.backend.backend).toBe('offline');
    }
    // With kg=0 no KG triple reached any run.
    const kgOff = runs.filter((r) => !RunConfigSchema.parse(r.config).switches.kg).map((r) => r.id);
    expect(kgOff).toHaveLength(16);
    expect(await prisma.evidence.count({ where: { runId: { in: kgOff }, channel: 'kg' } })).toBe(0);
  });

  it('reports scores that recomputing from the stored runs gives again', async () => {
    const prisma = await getPrisma();
    const runs = await prisma.run.findMany({ where: { evalJobId: jobId }, include: { _count: { select: { modelCalls: true } } } });
    const steps = await prisma.step.groupBy({ by: ['runId'], where: { runId: { in: runs.map((r) => r.id) }, status: { not: 'skipped' } }, _count: true });
    const stepCount = new Map(steps.map((s) => [s.runId, s._count]));
    const questions = new Map((await prisma.question.findMany({ where: { id: { in: runs.map((r) => r.questionId!) } } })).map((q) => [q.id, q]));
    const recomputed = runs.map((run) => {
      const input = RunInputSchema.parse(run.input);
      const config = RunConfigSchema.parse(run.config);
      const score = scoreAnswer(input.answerType, GoldAnswerSchema.parse(input.gold), run.answer as unknown as MethodAnswer, input.options);
      const q = questions.get(run.questionId!)!;
      return {
        method: run.method,
        config: configKey(config.switches),
        family: q.family!,
        answerType: q.answerType,
        ...score,
        calls: run._count.modelCalls,
        steps: stepCount.get(run.id) ?? 0,
      };
    });
    // The executor's verdict, the item's and this recomputation agree run by run.
    for (const [i, run] of runs.entries()) expect(run.correct).toBe(recomputed[i].correct);

    const view = await getEvalJobView({ id: jobId });
    expect(view.status).toBe('succeeded');
    expect(view.progress).toMatchObject({ total: 32, done: 32, errors: 0, pending: 0, inFlight: 0 });
    expect(view.summary.scores.map((s) => `${s.method}/${s.config}`)).toEqual(['direct/full', 'direct/kg=0', 'kg-rag/full', 'kg-rag/kg=0']);
    for (const cell of view.summary.scores) {
      const mine = recomputed.filter((r) => r.method === cell.method && r.config === cell.config);
      expect(mine).toHaveLength(8);
      expect(cell).toMatchObject({
        items: 8,
        finished: 8,
        scored: 8,
        correct: mine.filter((r) => r.correct).length,
        abstained: mine.filter((r) => r.abstained).length,
      });
      expect(cell.accuracy).toBeCloseTo(mine.filter((r) => r.correct).length / 8, 10);
      expect(cell.abstainRate).toBeCloseTo(mine.filter((r) => r.abstained).length / 8, 10);
      const grounded = mine.flatMap((r) => (r.grounding === null ? [] : [r.grounding]));
      expect(cell.grounding).toEqual(grounded.length ? expect.closeTo(mean(grounded), 10) : null);
      expect(cell.avgCalls).toBeCloseTo(mean(mine.map((r) => r.calls)), 10);
      expect(cell.avgSteps).toBeCloseTo(mean(mine.map((r) => r.steps)), 10);
    }

    // Overall Avg: mean over families of the macro average over their answer types.
    for (const row of view.summary.families.rows) {
      const mine = recomputed.filter((r) => r.method === row.method && r.config === row.config);
      const families = [...new Set(mine.map((r) => r.family))];
      const familyAvg = families.map((f) => {
        const types = [...new Set(mine.filter((r) => r.family === f).map((r) => r.answerType))];
        return mean(types.map((t) => mean(mine.filter((r) => r.family === f && r.answerType === t).map((r) => (r.correct ? 1 : 0)))));
      });
      expect(row.overallAvg).toBeCloseTo(mean(familyAvg), 10);
    }
    // X-R2's buckets, relabelled here from the stored runs with the X-R2 module's own function.
    for (const method of ['direct', 'kg-rag']) {
      const counts: Record<string, number> = {};
      for (const questionId of new Set(runs.map((r) => r.questionId!))) {
        const mine = runs.filter((r) => r.method === method && r.questionId === questionId);
        const { bucket } = attribute(mine.map((r) => ({ id: r.id, switches: RunConfigSchema.parse(r.config).switches, correct: r.correct })));
        counts[bucket] = (counts[bucket] ?? 0) + 1;
      }
      const reported = Object.fromEntries(Object.entries(view.summary.attribution!.counts[method]).filter(([, n]) => n > 0));
      expect(reported).toEqual(counts);
    }
    // The kg-rag baseline answers from the KG: switching it off must cost it accuracy on KG questions.
    const acc = (m: string, c: string) => view.summary.scores.find((s) => s.method === m && s.config === c)!.accuracy!;
    expect(acc('kg-rag', 'full')).toBeGreaterThan(acc('kg-rag', 'kg=0'));
  });

  it('links every matrix cell to its run, and drills down to one question', async () => {
    const page = await getMatrixPage({ id: jobId }, { offset: 0, limit: 5 });
    expect(page.total).toBe(8);
    expect(page.rows).toHaveLength(5);
    expect(page.columns).toHaveLength(4);
    const items = await (await getPrisma()).evalItem.findMany({ where: { jobId } });
    for (const row of page.rows) {
      for (const [i, cell] of row.cells.entries()) {
        const item = items.find((it) => it.questionId === row.questionId && it.method === page.columns[i].method && it.configKey === page.columns[i].config)!;
        expect(cell.runId).toBe(item.runId);
        expect(cell.state).toEqual(item.correct ? 'correct' : expect.stringMatching(/^(wrong|abstained)$/));
      }
    }
    const rest = await getMatrixPage({ id: jobId }, { offset: 5, limit: 5 });
    expect(rest.rows.map((r) => r.ordinal)).toEqual([...rest.rows.map((r) => r.ordinal)].sort((a, b) => a - b));
    expect(rest.rows).toHaveLength(3);

    const drill = await getQuestionDrilldown({ id: jobId }, page.rows[0].questionId);
    expect(drill.question.gold).toBeTruthy();
    expect(drill.runs.map((r) => r.runId)).toEqual(page.rows[0].cells.map((c) => c.runId));
  });

  it("reads its frozen summary and its set's counts through their schemas: a stored summary of another shape is recomputed, damaged counts read as empty", async () => {
    const prisma = await getPrisma();
    const view = await getEvalJobView({ id: jobId });
    const job = await prisma.evalJob.findUniqueOrThrow({ where: { id: jobId } });
    await prisma.evalJob.update({ where: { id: jobId }, data: { summary: { version: SUMMARY_VERSION, scores: 'damaged' } } });
    try {
      expect((await getEvalJobView({ id: jobId })).summary).toEqual(view.summary);
    } finally {
      await prisma.evalJob.update({ where: { id: jobId }, data: { summary: job.summary as object } });
    }
    const set = await prisma.questionSet.findFirstOrThrow({ where: { name: setName } });
    await prisma.questionSet.update({ where: { id: set.id }, data: { counts: { total: 'eight' } } });
    try {
      expect((await getQuestionSet(setName))!.counts).toEqual({ total: 0, byFamily: {}, byAnswerType: {}, byFamilyAndType: {} });
    } finally {
      await prisma.questionSet.update({ where: { id: set.id }, data: { counts: set.counts as object } });
    }
    expect((await getQuestionSet(setName))!.counts.total).toBe(8);
  });

  it('exports the runs and the scores as CSV and everything as JSON; the share view hides the job id', async () => {
    const items = await exportItems({ id: jobId });
    const csv = itemsCsv(items).trimEnd().split('\r\n');
    expect(csv).toHaveLength(33);
    expect(csv[0].split(',').slice(0, 3)).toEqual(['ordinal', 'question_id', 'question']);
    const view = await getEvalJobView({ id: jobId });
    expect(scoresCsv(view.summary.scores).trimEnd().split('\r\n')).toHaveLength(5);
    const shared = await exportJson({ shareId: view.shareId });
    expect(shared.id).toBeNull();
    expect(shared.items).toHaveLength(32);
    expect(shared.summary).toEqual(view.summary);
  });

  it('prints one JSON object with the per-method × configuration scores from the CLI', async () => {
    const out: string[] = [];
    const log = console.log;
    console.log = (line: string) => out.push(line);
    try {
      const code = await evalCli([
        '--set',
        setName,
        '--methods',
        'direct',
        '--switches',
        'full',
        '--limit',
        '3',
        '--seed',
        '7',
        '--backend',
        'offline',
        '--json',
      ]);
      expect(code).toBe(0);
    } finally {
      console.log = log;
    }
    expect(out).toHaveLength(1);
    const report = JSON.parse(out[0]);
    expect(report.job).toMatchObject({ status: 'succeeded', methods: ['direct'], configs: ['full'], sample: { limit: 3, seed: '7', setTotal: 8 } });
    expect(report.scores).toHaveLength(1);
    expect(report.scores[0]).toMatchObject({ method: 'direct', config: 'full', items: 3, finished: 3 });
  });
});

describe('resuming an interrupted evaluation', () => {
  it('runs only what did not finish: finished items keep their runs, an interrupted run resumes, a lost one is replaced', async () => {
    const prisma = await getPrisma();
    const setName = `eval-resume-${unique()}`;
    await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'eval-resume', count: 6 });
    const { id: jobId, lock } = await createEvalJob(
      { set: setName, methods: ['direct'], switches: ['full', 'param=0'], backend: 'offline', concurrency: 2 },
      { lock: true },
    );

    // First driver: stopped once four items are done (a server going down). The test keeps the
    // lock across the "restart", so that no server sharing the test database takes the job meanwhile.
    const stop = new AbortController();
    const kept = { held: lock.held, onRunEnded: lock.onRunEnded, release: async () => undefined };
    const first = await driveEvalJob(jobId, { mode: 'inline', lock: kept, onProgress: (c) => c.done >= 4 && stop.abort(), signal: stop.signal });
    expect(first).toBe('stopped');
    const doneBefore = await prisma.evalItem.findMany({ where: { jobId, NOT: { runId: null }, scores: { not: { equals: null } as never } } });
    expect(doneBefore.length).toBeGreaterThanOrEqual(4);
    const finishedRuns = await prisma.run.findMany({ where: { id: { in: doneBefore.map((i) => i.runId!) } } });

    // The crash left three more items half-way: one run was created but its queue message lost, one was running when its
    // worker died, and one was put back on the run queue by a worker's sweep, with no worker left to take it.
    const pending = await prisma.evalItem.findMany({ where: { jobId, runId: null }, take: 3 });
    expect(pending).toHaveLength(3);
    const [lost, interrupted, stranded] = await Promise.all(
      pending.map(async (item) => {
        const { id } = await createRun(
          { questionId: item.questionId, method: item.method, switches: { param: item.configKey !== 'param=0' }, backend: 'offline' },
          { enqueue: false, evalJobId: jobId },
        );
        await prisma.evalItem.update({ where: { id: item.id }, data: { runId: id } });
        return id;
      }),
    );
    await prisma.run.update({
      where: { id: interrupted },
      data: { status: 'running', attempts: 1, startedAt: new Date(Date.now() - 120_000), updatedAt: new Date(Date.now() - 120_000) },
    });
    await prisma.run.update({
      where: { id: stranded },
      data: { status: 'queued', attempts: 1, startedAt: new Date(Date.now() - 120_000), updatedAt: new Date(Date.now() - 120_000) },
    });

    // The restart: a new driver finishes the job.
    expect(await driveEvalJob(jobId, { mode: 'inline', lock })).toBe('finished');

    const items = await prisma.evalItem.findMany({ where: { jobId } });
    expect(items).toHaveLength(12);
    expect(items.every((i) => i.scores !== null && i.runId)).toBe(true);
    // Completed items were never rerun: same run, one attempt, same finish time.
    for (const before of doneBefore) expect(items.find((i) => i.id === before.id)!.runId).toBe(before.runId);
    const after = new Map((await prisma.run.findMany({ where: { evalJobId: jobId } })).map((r) => [r.id, r]));
    for (const run of finishedRuns) expect(after.get(run.id)).toMatchObject({ attempts: 1, finishedAt: run.finishedAt, status: 'succeeded' });
    // The interrupted run resumed under its own id; the lost one was replaced by a new run.
    expect(after.get(interrupted)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(items.find((i) => i.id === pending[1].id)!.runId).toBe(interrupted);
    expect(after.has(lost)).toBe(false);
    expect(items.find((i) => i.id === pending[0].id)!.runId).not.toBe(lost);
    // The stranded run was cancelled (no late worker can run it beside its replacement) and its item ran anew.
    expect(after.get(stranded)).toMatchObject({ status: 'cancelled', error: expect.stringMatching(/^superseded/) });
    const replacement = items.find((i) => i.id === pending[2].id)!.runId!;
    expect(replacement).not.toBe(stranded);
    expect(after.get(replacement)!.status).toBe('succeeded');
    // One run per item, no duplicates (besides the cancelled stranded one).
    expect([...after.values()].filter((r) => r.status !== 'cancelled')).toHaveLength(12);
    const job = await prisma.evalJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: 'succeeded', done: 12, errors: 0 });
    expect(job.summary).toBeTruthy();
  });

  it('a second driver on a driven job backs off', async () => {
    const setName = `eval-busy-${unique()}`;
    await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'eval-busy', count: 2 });
    const { id, lock: held } = await createEvalJob({ set: setName, methods: 'direct', backend: 'offline' }, { lock: true });
    expect(await tryLockJob(id)).toBeNull();
    expect(await driveEvalJob(id, { mode: 'inline' })).toBe('busy');
    expect(await (await getPrisma()).evalItem.count({ where: { jobId: id, NOT: { runId: null } } })).toBe(0);
    await held.release();
    expect(await driveEvalJob(id, { mode: 'inline' })).toBe('finished');
  });

  it('cancelling stops the job; finished items keep their outcome and unstarted ones get no run', async () => {
    const prisma = await getPrisma();
    const setName = `eval-cancel-${unique()}`;
    await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'eval-cancel', count: 6 });
    const { id, lock } = await createEvalJob({ set: setName, methods: 'direct', switches: 'full,kg=0', backend: 'offline', concurrency: 1 }, { lock: true });
    const result = await driveEvalJob(id, { mode: 'inline', lock, onProgress: (c) => c.done >= 2 && void cancelEvalJob(id) });
    expect(result).toBe('cancelled');
    const job = await prisma.evalJob.findUniqueOrThrow({ where: { id } });
    expect(job.status).toBe('cancelled');
    const items = await prisma.evalItem.findMany({ where: { jobId: id } });
    expect(items.filter((i) => i.scores !== null).length).toBeGreaterThanOrEqual(2);
    expect(items.filter((i) => i.runId === null).length).toBeGreaterThan(0);
    expect(items.every((i) => i.runId === null || i.scores !== null)).toBe(true);
    expect(await driveEvalJob(id, { mode: 'inline' })).toBe('cancelled');
  });
});

describe('the server path: the eval supervisor feeds the shared run queue', () => {
  it('finishes a job through the run workers', async () => {
    const setName = `eval-queue-${unique()}`;
    await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'eval-queue', count: 3 });
    const { id } = await createEvalJob({ set: setName, methods: 'direct', switches: 'full,entity=0', backend: 'offline', concurrency: 2 });
    const runWorkers = await startRunWorkers({ concurrency: 2 });
    const evalWorkers = startEvalWorkers({ maxJobs: 10, pollMs: 200 });
    try {
      let view = await getEvalJobView({ id });
      for (let i = 0; i < 120 && !['succeeded', 'failed'].includes(view.status); i++) {
        await new Promise((r) => setTimeout(r, 500));
        view = await getEvalJobView({ id });
      }
      expect(view.status).toBe('succeeded');
      expect(view.progress).toMatchObject({ done: 6, total: 6, errors: 0 });
    } finally {
      await evalWorkers.stop();
      await runWorkers.stop();
    }
  });
});
