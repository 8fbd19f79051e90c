import { linkEntities } from '@/lib/kg';
import { asLinked } from '@/lib/llm/offline/linked';
import type { ModelClient } from '@/lib/llm/client';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { AnswerType, MethodAnswer } from '@/lib/methods/types';
import { InvalidInputError } from '@/lib/base/errors';
import type { CallRecorder } from '@/lib/llm/types';
import { wellFormed } from './checks';
import { generalCriteria } from './criteria';
import { unsupportedFacts } from './facts';
import './offline';
import { runReasoning } from './reasoning';
import { type CriterionVerdict, type K2vReport, type VerificationStage } from '@/lib/trace/steps/k2v';
import { FORMAT_REWARD, k2vRewards, passRate } from './rewards';
import { checklistTemplate, judgeTemplate, type GoldView } from './templates';

export type { K2vReport } from '@/lib/trace/steps/k2v';
export type { GoldView } from './templates';

export interface VerifyOptions {
  /** Answer reward α (paper: 6). */
  alpha?: number;
  /** R_format for a well-formed answer (see rewards.ts). */
  formatReward?: number;
}

/** A finished run as K2V reads it. */
export interface VerifiedRun {
  id: string;
  status: 'succeeded' | 'failed';
  question: { text: string; options: Record<string, string> | null; answerType: AnswerType };
  gold: GoldView | null;
  answer: MethodAnswer | null;
  /** The run's own scoring against the gold answer. */
  correct: boolean | null;
  /** Every evidence record of the run. */
  evidence: { id: string; kind: string; text: string; data: unknown }[];
  /** The method's model calls in order, each with the label of its step. */
  calls: { step: string; role: string; output: string | null }[];
}

/** A verification as computed, before it is stored as the run's next version. */
export interface Verification {
  report: Omit<K2vReport, 'version'>;
  stages: VerificationStage[];
  durationMs: number;
}

/** The options' α and R_format, checked (the caller checks them before reading the run). */
export function verifyOptions(options: VerifyOptions = {}): { alpha: number; formatReward: number } {
  const alpha = options.alpha ?? 6;
  const formatReward = options.formatReward ?? FORMAT_REWARD;
  if (![alpha, formatReward].every((v) => Number.isFinite(v) && v >= 0)) throw new InvalidInputError('alpha and formatReward must be non-negative numbers');
  return { alpha, formatReward };
}

/**
 * K2V checklist verification of a finished run (k2v.txt §2.2): a checklist
 * role instantiates the versioned general criteria for this question (and its
 * gold answer when known), a judge answers yes/no per criterion against the
 * run's answer, rationale and cited evidence, and the pass rate p feeds both
 * reward forms. The stages only compute: the caller stores the result as a
 * verification record of its own (lib/runs/verify.ts), and the run is never changed.
 */
export async function verify(run: VerifiedRun, model: ModelClient, options: VerifyOptions = {}): Promise<Verification> {
  const { alpha, formatReward } = verifyOptions(options);
  const { question, gold } = run;
  const general = generalCriteria();
  const started = Date.now();
  const stages = new StageLog();

  const links = await stages.run('link', 'Link question entities', { question: question.text }, async () => {
    const optionLinks: Record<string, LinkedEntity[]> = {};
    for (const [key, text] of Object.entries(question.options ?? {})) optionLinks[key] = asLinked(await linkEntities(text));
    return { entities: asLinked(await linkEntities(question.text)), optionLinks };
  });
  // The judge reads the method's reasoning trace: its model calls in order, with their steps.
  const reasoning = runReasoning(question, run.answer, run.evidence, links.entities, run.calls);

  const checklist = await stages.run('checklist', 'Checklist', { gold, general: general.criteria.map((c) => c.id) }, async (recorder) => {
    const result = await model.call(
      checklistTemplate,
      { question: question.text, options: question.options, answerType: question.answerType, gold, general: general.criteria.map((c) => c.text), ...links },
      { recorder },
    );
    return result.parsed?.criteria ?? [];
  });
  const criteria = [
    ...general.criteria.map((c) => ({ id: c.id, text: c.text, source: 'general' as const, check: c.check })),
    ...checklist.map((text, i) => ({ id: `Q${i + 1}`, text, source: 'question' as const, check: null })),
  ];

  // What the run was given: a criterion stating anything beyond this checks knowledge the run never had.
  const known = [question.text, ...Object.values(question.options ?? {}), ...run.evidence.map((e) => e.text)].join('\n');
  // Each criterion is judged on its own (K2V's judge sees one criterion and the trace): all go out at once, up to the run's concurrency limit.
  const verdicts: CriterionVerdict[] = await Promise.all(
    criteria.map(async (c) => {
      const judged = await stages.run('judge', `Criterion ${c.id}`, { text: c.text, source: c.source }, async (recorder) => {
        const result = await model.call(judgeTemplate, { question: question.text, gold, criterion: { text: c.text, check: c.check }, reasoning }, { recorder });
        const verdict = result.parsed ?? { verdict: 'no' as const, reason: 'the judge gave no verdict' };
        return { ...verdict, flaggedUnsupportedFacts: await unsupportedFacts(c.text, known) };
      });
      return { id: c.id, text: c.text, source: c.source, ...judged };
    }),
  );

  const p = passRate(verdicts.filter((v) => v.source === 'question').map((v) => v.verdict));
  const generalPassRate = passRate(verdicts.filter((v) => v.source === 'general').map((v) => v.verdict));
  const correct = gold ? (run.correct ?? false) : null;
  const formed = run.status === 'succeeded' && wellFormed(reasoning).verdict === 'yes';
  const report: Verification['report'] = {
    runId: run.id,
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
  return { report, stages: stages.stages, durationMs: Date.now() - started };
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
