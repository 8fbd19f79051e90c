import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeDb, getPrisma } from '@/lib/db/client';
import { ConflictError, NotFoundError } from '@/lib/base/errors';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord } from '@/lib/runs/read';
import { createRun } from '@/lib/runs/service';
import { stopQueue } from '@/lib/runs/queue';
import { verifyRun } from '@/lib/runs/verify';
import type { K2vReport } from '@/lib/verify';
import { generalCriteria } from '@/lib/verify/criteria';
import { K2vReportSchema, VerificationStageSchema } from '@/lib/trace/steps/k2v';
import { unsupportedFacts } from '@/lib/verify/facts';
import { checklistTemplate, judgeTemplate } from '@/lib/verify/templates';
import { recallTemplate } from '@/lib/llm/templates/generic';
import { kgRagTemplate } from '@/lib/methods/baselines/templates';
import { reply, setScriptedModelEnv, startScriptedOpenAIServer } from '../support/scripted-openai-server';

const QUESTION = 'Which disease is treated by metformin and is associated with the gene PPARG?';

let setId: string;
let ordinal = 0;

/** A question with a gold answer, run to the end offline (EIGEN-1 with two proposers keeps it quick). */
async function finishedRun(gold: string, switches?: Record<string, boolean>) {
  const question = await (
    await getPrisma()
  ).question.create({ data: { setId, ordinal: ordinal++, text: QUESTION, answerType: 'open', answer: { text: gold } } });
  const { id } = await createRun({ method: 'eigen1', questionId: question.id, backend: 'offline', params: { k: 2 }, switches }, { enqueue: false });
  await executeRun(id);
  return getRunRecord({ id });
}

beforeAll(async () => {
  setId = (await (await getPrisma()).questionSet.create({ data: { name: `k2v-test-${randomUUID()}`, source: 'adhoc' } })).id;
});
afterAll(async () => {
  await (await getPrisma()).questionSet.delete({ where: { id: setId } });
  await stopQueue();
  await closeDb();
});

describe('K2V checklist verification of a finished run', () => {
  let runId: string;
  let report: K2vReport;
  let before: Awaited<ReturnType<typeof getRunRecord>>;

  it('judges the general and the question-specific criteria, one by one', async () => {
    // A correct, well-formed run: EIGEN-1 finds the disease with the aids on (the reader picks each query's anchors, docs/aids.md).
    const run = await finishedRun('metabolic syndrome X', { aids: true });
    expect(run.status).toBe('succeeded');
    runId = run.id;
    before = run;
    report = await verifyRun(runId);

    const general = generalCriteria();
    expect(report.criteriaVersion).toBe(general.version);
    expect(report.criteria.filter((c) => c.source === 'general').map((c) => [c.id, c.text])).toEqual(general.criteria.map((c) => [c.id, c.text]));
    expect(report.criteria.filter((c) => c.source === 'question').map((c) => c.text)).toEqual([
      'The answer names a disease.',
      'The answer is supported by a Compound–Disease (CtD) relation to Metformin.',
      'The answer is supported by a Gene–Disease (DaG) relation to PPARG.',
      'The answer identifies metabolic syndrome X.',
    ]);
    for (const c of report.criteria) {
      expect(['yes', 'no']).toContain(c.verdict);
      expect(c.reason.length).toBeGreaterThan(0);
    }
    // The offline judge checks the run's record: the identify-criterion agrees with the run's own scoring.
    expect(report.criteria.find((c) => c.text.startsWith('The answer identifies'))!.verdict).toBe(run.correct ? 'yes' : 'no');
    expect(report.criteria.find((c) => c.id === 'G1')!.verdict).toBe((run.answer as { abstained: boolean }).abstained ? 'no' : 'yes');
  });

  it('reports the pass rate, the correct flag and both reward forms', async () => {
    const run = await getRunRecord({ id: runId });
    // p is over the instantiated checklist only; the general criteria are reported apart.
    const rate = (source: string) => {
      const of = report.criteria.filter((c) => c.source === source);
      return of.filter((c) => c.verdict === 'yes').length / of.length;
    };
    expect(report.criteria.some((c) => c.source === 'general')).toBe(true);
    expect(report.passRate).toBe(rate('question'));
    expect(report.generalPassRate).toBe(rate('general'));
    expect(report.correct).toBe(run.correct);
    expect(report.wellFormed).toBe(true);
    const indicator = report.correct ? 1 : 0;
    expect(report.rewards).toEqual({
      // R_format's paper maximum.
      format: 0.75,
      answer: 6 * indicator,
      reasoning: report.passRate,
      plain: 0.75 + 6 * indicator + report.passRate,
      gated: 0.75 + indicator * (6 + report.passRate),
    });
  });

  it("records the verification as its own versioned object, with each stage's model calls, and leaves the frozen run unchanged", async () => {
    const run = await getRunRecord({ id: runId });
    expect(run.steps.some((s) => s.kind.startsWith('verify'))).toBe(false);
    expect(run.modelCalls.some((c) => c.template.startsWith('k2v.'))).toBe(false);
    expect((run.scores as Record<string, unknown>).k2v).toBeUndefined();
    expect(run.scores).toEqual(before.scores);
    expect(run.steps.length).toBe(before.steps.length);

    const stored = await (await getPrisma()).verification.findMany({ where: { runId } });
    expect(stored).toHaveLength(1);
    expect(report.version).toBe(1);
    expect(K2vReportSchema.parse(stored[0].report)).toEqual(report);
    const stages = z.array(VerificationStageSchema).parse(stored[0].stages);
    expect(stages.map((s) => s.kind)).toEqual(['link', 'checklist', ...report.criteria.map(() => 'judge')]);
    expect(stages.filter((s) => s.kind === 'judge').map((s) => s.label)).toEqual(report.criteria.map((c) => `Criterion ${c.id}`));
    const judged = stages.flatMap((s) => s.calls).filter((c) => c.template === 'k2v.judge');
    expect(judged.map((c) => (c.parsed as { verdict: string }).verdict)).toEqual(report.criteria.map((c) => c.verdict));
    expect(stages.flatMap((s) => s.calls).filter((c) => c.template === 'k2v.checklist')).toHaveLength(1);
    // The judge reads the run's reasoning trace: the method's own model calls, in order, not only a summary.
    const methodCalls = run.modelCalls.filter((c) => c.output);
    expect(methodCalls.length).toBeGreaterThan(0);
    expect(JSON.stringify(judged[0].messages)).toContain("reasoning trace (the run's model calls in order)");
    expect(JSON.stringify(judged[0].messages)).toContain(`[${methodCalls[0].role}]`);
  });

  it('verifies again with another α as version 2, keeping version 1', async () => {
    const again = await verifyRun(runId, { alpha: 2 });
    expect(again.alpha).toBe(2);
    expect(again.version).toBe(2);
    expect(again.rewards.plain).toBe(0.75 + (again.correct ? 2 : 0) + again.passRate);
    const stored = await (await getPrisma()).verification.findMany({ where: { runId }, orderBy: { version: 'asc' } });
    expect(stored.map((v) => [v.version, v.alpha])).toEqual([
      [1, 6],
      [2, 2],
    ]);
    expect((await getRunRecord({ id: runId })).steps.length).toBe(before.steps.length);
  });
});

describe('K2V over an OpenAI-compatible server', () => {
  it("the judge reads the answer's claims and evidence under the run's citation ids, the ids its reasoning trace cites, never record ids", async () => {
    const judged: string[] = [];
    let cited = '';
    const server = await startScriptedOpenAIServer((request) => {
      const [system, user] = request.body.messages as { content: string }[];
      const json = (value: unknown) => reply.ok(JSON.stringify(value));
      switch (system.content) {
        case recallTemplate.system:
          return json({ claims: [] });
        case kgRagTemplate.system:
          cited = /^\[(K\d+)\] .*–treats→ /m.exec(user.content)![1];
          return json({
            answer: 'a compound',
            optionKey: null,
            items: [],
            count: null,
            abstain: false,
            rationale: `${cited} states it`,
            claims: [{ text: 'it treats the disease', evidenceIds: [cited] }],
          });
        case checklistTemplate.system:
          return json({ criteria: ['Cites a treats relation.'] });
        case judgeTemplate.system:
          judged.push(user.content);
          return json({ verdict: 'yes', reason: 'scripted' });
        default:
          return reply.status(500, { message: `unexpected role: ${system.content.slice(0, 40)}` });
      }
    });
    const restore = setScriptedModelEnv(server, { model: `scripted-${randomUUID()}` });
    try {
      const { id } = await createRun({ method: 'kg-rag', backend: 'openai', question: 'Which compounds treat multiple sclerosis?' }, { enqueue: false });
      await executeRun(id);
      const run = await getRunRecord({ id });
      expect(run.status).toBe('succeeded');
      const record = run.evidence.find((e) => e.cite === cited)!;
      await verifyRun(id);
      expect(judged.length).toBeGreaterThan(1);
      for (const prompt of judged) {
        expect(prompt).toContain(`- it treats the disease [${cited}]`);
        expect(prompt).toContain(`evidence used:\n[${cited}] ${record.text}`);
        expect(prompt).toContain(`rationale: ${cited} states it`);
        expect(prompt).not.toContain(record.id);
      }
    } finally {
      restore();
      await server.close();
    }
  });
});

describe('K2V unsupported-fact flags', () => {
  it("flags a criterion naming an entity that neither the question nor the run's evidence contains", async () => {
    // No KG and no documents: the run sees no evidence at all, so the gold answer is a fact it was never given.
    const run = await finishedRun('type 2 diabetes mellitus', { kg: false, doc: false });
    expect(run.evidence).toHaveLength(0);
    const report = await verifyRun(run.id);
    const byText = (prefix: string) => report.criteria.find((c) => c.text.startsWith(prefix))!;
    expect(byText('The answer identifies').flaggedUnsupportedFacts).toEqual(['type 2 diabetes mellitus']);
    expect(byText('The answer is supported by a Compound–Disease').flaggedUnsupportedFacts).toEqual([]);
    expect(report.criteria.filter((c) => c.source === 'general').every((c) => c.flaggedUnsupportedFacts.length === 0)).toBe(true);
    // An abstention: not well-formed, not correct, and under the gate no reward at all.
    expect(report).toMatchObject({ correct: false, wellFormed: false });
    expect(report.rewards).toEqual({ format: 0, answer: 0, reasoning: report.passRate, plain: report.passRate, gated: 0 });
  });

  it('does not flag a fact the evidence states, and flags numbers the same way', async () => {
    expect(
      await unsupportedFacts('The answer identifies type 2 diabetes mellitus.', 'Metformin (Compound) – treats – type 2 diabetes mellitus (Disease)'),
    ).toEqual([]);
    expect(await unsupportedFacts('The count stated is 23.', 'How many genes are associated with asthma? 12 were found.')).toEqual(['23']);
    expect(await unsupportedFacts('The count stated is 12.', 'How many genes are associated with asthma? 12 were found.')).toEqual([]);
  });
});

describe('K2V verification refuses what it cannot verify', () => {
  it('rejects unknown and unfinished runs', async () => {
    await expect(verifyRun('no-such-run')).rejects.toBeInstanceOf(NotFoundError);
    const { id } = await createRun({ method: 'eigen1', question: QUESTION, backend: 'offline' }, { enqueue: false });
    await expect(verifyRun(id)).rejects.toBeInstanceOf(ConflictError);
    expect((await getRunRecord({ id })).steps).toHaveLength(0);
    expect(await (await getPrisma()).verification.count({ where: { runId: id } })).toBe(0);
  });
});
