import { getPrisma } from '@/lib/db/client';
import { GoldAnswerSchema } from '@/lib/eval/scoring';
import { linkEntities } from '@/lib/kg';
import { asLinked } from '@/lib/llm/offline/linked';
import { ModelClient } from '@/lib/llm/client';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { MethodAnswer } from '@/lib/methods/types';
import { createBackend } from '@/lib/runs/backend';
import { ConflictError, InvalidInputError } from '@/lib/runs/errors';
import { getRunRecord } from '@/lib/runs/read';
import { RunConfigSchema, RunInputSchema, type RunInput } from '@/lib/runs/schemas';
import { TraceRecorder, toJson } from '@/lib/trace/recorder';
import { wellFormed } from './checks';
import { generalCriteria } from './criteria';
import { unsupportedFacts } from './facts';
import './offline';
import { runReasoning } from './reasoning';
import { FORMAT_REWARD, k2vRewards, passRate, type Rewards } from './rewards';
import { checklistTemplate, judgeTemplate, type GoldView } from './templates';

export interface CriterionVerdict {
  id: string;
  text: string;
  source: 'general' | 'question';
  verdict: 'yes' | 'no';
  reason: string;
  /** Entity names and numbers the criterion states that neither the question nor the run's evidence contains. */
  flaggedUnsupportedFacts: string[];
}

export interface K2vReport {
  runId: string;
  criteria: CriterionVerdict[];
  /** p of eq. 5: over the instantiated checklist CL_x only. */
  passRate: number;
  /** The general criteria's pass rate, reported apart (not part of p). */
  generalPassRate: number;
  /** null when the question has no gold answer. */
  correct: boolean | null;
  wellFormed: boolean;
  alpha: number;
  rewards: Rewards;
  criteriaVersion: number;
  /** The model (or the offline engine) that wrote the checklist and judged it. */
  verifier: string;
  verifiedAt: string;
}

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
 * reward forms. Recorded as 'verify.*' steps appended to the run's own trace,
 * and merged into the run's scores under `k2v`.
 */
export async function verifyRun(runId: string, options: VerifyOptions = {}): Promise<K2vReport> {
  const alpha = options.alpha ?? 6;
  const formatReward = options.formatReward ?? FORMAT_REWARD;
  if (![alpha, formatReward].every((v) => Number.isFinite(v) && v >= 0)) throw new InvalidInputError('alpha and formatReward must be non-negative numbers');
  const record = await getRunRecord({ id: runId });
  if (record.status !== 'succeeded' && record.status !== 'failed') throw new ConflictError(`Run ${runId} is ${record.status}: only a finished run can be verified`);
  const input = RunInputSchema.parse(record.input);
  const config = RunConfigSchema.parse(record.config);
  const gold = goldView(input);
  const general = generalCriteria();
  const model = new ModelClient(createBackend(config.backend));
  const prisma = getPrisma();
  const trace = await TraceRecorder.open(runId);
  const round = record.steps.filter((s) => s.kind === 'verify' && !s.parentStepId).length + 1;

  const report = await trace.step(
    { kind: 'verify', label: `K2V checklist verification #${round}`, input: { criteriaVersion: general.version, alpha, formatReward } },
    async (root): Promise<K2vReport> => {
      const links = await trace.step({ kind: 'verify.link', label: 'Link question entities', input: { question: input.question }, parent: root }, async () => {
        const optionLinks: Record<string, LinkedEntity[]> = {};
        for (const [key, text] of Object.entries(input.options ?? {})) optionLinks[key] = asLinked(await linkEntities(text));
        return { entities: asLinked(await linkEntities(input.question)), optionLinks };
      });
      const reasoning = runReasoning(input, record.answer as MethodAnswer | null, record.evidence, links.entities);

      const checklist = await trace.step({ kind: 'verify.checklist', label: 'Checklist', input: { gold, general: general.criteria.map((c) => c.id) }, parent: root }, async (step) => {
        const result = await model.call(
          checklistTemplate,
          { question: input.question, options: input.options, answerType: input.answerType, gold, general: general.criteria.map((c) => c.text), ...links },
          { recorder: trace.callRecorder(step) },
        );
        return result.parsed?.criteria ?? [];
      });
      const criteria = [
        ...general.criteria.map((c) => ({ id: c.id, text: c.text, source: 'general' as const, check: c.check })),
        ...checklist.map((text, i) => ({ id: `Q${i + 1}`, text, source: 'question' as const, check: null })),
      ];

      // What the run was given: a criterion stating anything beyond this checks knowledge the run never had.
      const known = [input.question, ...Object.values(input.options ?? {}), ...record.evidence.map((e) => e.text)].join('\n');
      const verdicts: CriterionVerdict[] = [];
      for (const c of criteria) {
        const judged = await trace.step({ kind: 'verify.judge', label: `Criterion ${c.id}`, input: { text: c.text, source: c.source }, parent: root }, async (step) => {
          const result = await model.call(judgeTemplate, { question: input.question, gold, criterion: { text: c.text, check: c.check }, reasoning }, { recorder: trace.callRecorder(step) });
          const verdict = result.parsed ?? { verdict: 'no' as const, reason: 'the judge gave no verdict' };
          return { ...verdict, flaggedUnsupportedFacts: await unsupportedFacts(c.text, known) };
        });
        verdicts.push({ id: c.id, text: c.text, source: c.source, ...judged });
      }

      const p = passRate(verdicts.filter((v) => v.source === 'question').map((v) => v.verdict));
      const generalPassRate = passRate(verdicts.filter((v) => v.source === 'general').map((v) => v.verdict));
      const correct = gold ? (record.correct ?? false) : null;
      const formed = record.status === 'succeeded' && wellFormed(reasoning).verdict === 'yes';
      return {
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
    },
  );

  const scores = record.scores && typeof record.scores === 'object' && !Array.isArray(record.scores) ? record.scores : {};
  await prisma.run.update({ where: { id: runId }, data: { scores: toJson({ ...scores, k2v: report }) } });
  return report;
}

function goldView(input: RunInput): GoldView | null {
  const parsed = input.gold ? GoldAnswerSchema.safeParse(input.gold) : null;
  if (!parsed?.success) return null;
  const g = parsed.data;
  const key = g.key?.toUpperCase() ?? null;
  return { text: g.text || (key ? (input.options?.[key] ?? '') : '') || (g.count !== undefined ? String(g.count) : ''), key, count: g.count ?? null };
}
