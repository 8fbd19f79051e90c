import { GoldAnswerSchema } from '@/lib/eval/scoring';
import { linkEntities } from '@/lib/kg';
import { asLinked } from '@/lib/llm/offline/linked';
import { CitationIndex } from '@/lib/channels/citations';
import { ModelClient } from '@/lib/llm/client';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import { MethodAnswerSchema } from '@/lib/trace/steps/common';
import { createBackend } from '@/lib/runs/backend';
import { ConflictError, InvalidInputError } from '@/lib/base/errors';
import { getRunRecord } from '@/lib/runs/read';
import { RunConfigSchema, RunInputSchema, type RunInput } from '@/lib/runs/schemas';
import type { CallRecorder } from '@/lib/llm/types';
import { wellFormed } from './checks';
import { generalCriteria } from './criteria';
import { unsupportedFacts } from './facts';
import './offline';
import { runReasoning } from './reasoning';
import { type CriterionVerdict, type K2vReport, type VerificationStage } from './report';
import { FORMAT_REWARD, k2vRewards, passRate } from './rewards';
import { saveVerification } from './store';
import { checklistTemplate, judgeTemplate, type GoldView } from './templates';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';
import { readEnv } from '@/lib/config';

export type { CriterionVerdict, K2vReport } from './report';

export interface VerifyOptions {
  /** Answer reward α (paper: 6). */
  alpha?: number;
  /** R_format for a well-formed answer (see rewards.ts). */
  formatReward?: number;
}

/**
 * K2V checklist verification of any finished run (k2v.txt §2.2): a checklist
 * role instantiates the versioned general criteria for this question (and its
 * gold answer when known), a judge answers yes/no per criterion against the
 * run's answer, rationale and cited evidence, and the pass rate p feeds both
 * reward forms. Recorded as its own versioned `Verification` (stages and model
 * calls included): the run, frozen when it finished, is never changed.
 */
export async function verifyRun(runId: string, options: VerifyOptions = {}): Promise<K2vReport> {
  const alpha = options.alpha ?? 6;
  const formatReward = options.formatReward ?? FORMAT_REWARD;
  if (![alpha, formatReward].every((v) => Number.isFinite(v) && v >= 0)) throw new InvalidInputError('alpha and formatReward must be non-negative numbers');
  const [record] = await Promise.all([getRunRecord({ id: runId }), loadMetagraph()]); // the offline reading needs the graph's relations
  if (record.status !== 'succeeded' && record.status !== 'failed')
    throw new ConflictError(`Run ${runId} is ${record.status}: only a finished run can be verified`);
  const input = RunInputSchema.parse(record.input);
  const config = RunConfigSchema.parse(record.config);
  const gold = goldView(input);
  const general = generalCriteria();
  // The run's citation ids (K3, D1, …): the judge reads the evidence under the ids the trace's model outputs cite, not record ids.
  const citations = new CitationIndex();
  citations.register(record.evidence.map((e) => ({ ...e, channel: e.channel as never, kind: e.kind as never })));
  const model = new ModelClient(createBackend(config.backend), { citations, concurrency: readEnv().HOPSCOPE_MODEL_CONCURRENCY });
  const started = Date.now();
  const stages = new StageLog();

  const links = await stages.run('link', 'Link question entities', { question: input.question }, async () => {
    const optionLinks: Record<string, LinkedEntity[]> = {};
    for (const [key, text] of Object.entries(input.options ?? {})) optionLinks[key] = asLinked(await linkEntities(text));
    return { entities: asLinked(await linkEntities(input.question)), optionLinks };
  });
  // The judge reads the method's reasoning trace: its model calls in order, with their steps.
  const labels = new Map(record.steps.map((s) => [s.id, s.label]));
  const calls = record.modelCalls.map((c) => ({ step: labels.get(c.stepId ?? '') ?? '(run)', role: c.role, output: c.output }));
  const reasoning = runReasoning(input, MethodAnswerSchema.safeParse(record.answer).data ?? null, record.evidence, links.entities, calls);

  const checklist = await stages.run('checklist', 'Checklist', { gold, general: general.criteria.map((c) => c.id) }, async (recorder) => {
    const result = await model.call(
      checklistTemplate,
      { question: input.question, options: input.options, answerType: input.answerType, gold, general: general.criteria.map((c) => c.text), ...links },
      { recorder },
    );
    return result.parsed?.criteria ?? [];
  });
  const criteria = [
    ...general.criteria.map((c) => ({ id: c.id, text: c.text, source: 'general' as const, check: c.check })),
    ...checklist.map((text, i) => ({ id: `Q${i + 1}`, text, source: 'question' as const, check: null })),
  ];

  // What the run was given: a criterion stating anything beyond this checks knowledge the run never had.
  const known = [input.question, ...Object.values(input.options ?? {}), ...record.evidence.map((e) => e.text)].join('\n');
  // Each criterion is judged on its own (K2V's judge sees one criterion and the trace): all go out at once, up to the run's concurrency limit.
  const verdicts: CriterionVerdict[] = await Promise.all(
    criteria.map(async (c) => {
      const judged = await stages.run('judge', `Criterion ${c.id}`, { text: c.text, source: c.source }, async (recorder) => {
        const result = await model.call(
          judgeTemplate,
          { question: input.question, gold, criterion: { text: c.text, check: c.check }, reasoning },
          { recorder },
        );
        const verdict = result.parsed ?? { verdict: 'no' as const, reason: 'the judge gave no verdict' };
        return { ...verdict, flaggedUnsupportedFacts: await unsupportedFacts(c.text, known) };
      });
      return { id: c.id, text: c.text, source: c.source, ...judged };
    }),
  );

  const p = passRate(verdicts.filter((v) => v.source === 'question').map((v) => v.verdict));
  const generalPassRate = passRate(verdicts.filter((v) => v.source === 'general').map((v) => v.verdict));
  const correct = gold ? (record.correct ?? false) : null;
  const formed = record.status === 'succeeded' && wellFormed(reasoning).verdict === 'yes';
  const report: Omit<K2vReport, 'version'> = {
    runId,
    criteria: verdicts,
    passRate: p,
    generalPassRate,
    correct,
    wellFormed: formed,
    alpha,
    rewards: k2vRewards({ wellFormed: formed, correct, passRate: p, alpha, formatReward }),
    criteriaVersion: general.version,
    verifier: model.describe().model,
    verifiedAt: new Date().toISOString(),
  };
  // The stages only compute; the verification is stored once, here.
  return saveVerification(report, stages.stages, Date.now() - started);
}

/** The stages of one verification, each with the model calls it made (kept in the verification record, not the run's trace). */
class StageLog {
  readonly stages: VerificationStage[] = [];

  async run<T>(kind: VerificationStage['kind'], label: string, input: unknown, body: (recorder: CallRecorder) => Promise<T>): Promise<T> {
    const calls: VerificationStage['calls'] = [];
    const recorder: CallRecorder = async (r) => {
      calls.push({
        role: r.role,
        template: r.template,
        templateVersion: r.templateVersion,
        model: r.model,
        messages: r.messages,
        output: r.output,
        parsed: r.parsed ?? null,
        tokensIn: r.tokensIn,
        tokensOut: r.tokensOut,
        latencyMs: r.latencyMs,
        error: r.error,
      });
    };
    const started = Date.now();
    // Stages run together (the judges) are listed in the order they started.
    const at = this.stages.push({ kind, label, input, output: null, durationMs: 0, calls }) - 1;
    const output = await body(recorder);
    this.stages[at] = { kind, label, input, output, durationMs: Date.now() - started, calls };
    return output;
  }
}

function goldView(input: RunInput): GoldView | null {
  const parsed = input.gold ? GoldAnswerSchema.safeParse(input.gold) : null;
  if (!parsed?.success) return null;
  const g = parsed.data;
  const key = g.key?.toUpperCase() ?? null;
  return { text: g.text || (key ? (input.options?.[key] ?? '') : '') || (g.count !== undefined ? String(g.count) : ''), key, count: g.count ?? null };
}
