import { z } from 'zod';

/** K2V's recorded shapes (lib/verify computes them): the report and stages of a verification record, and the step kinds of old traces. */

/**
 * The K2V report as stored in a verification record (`verifications.report`)
 * and shown on the run page: parsed through this schema on read, so a page
 * never guesses its shape. Client-safe (zod only).
 */
export const CriterionVerdictSchema = z.object({
  id: z.string(),
  text: z.string(),
  source: z.enum(['general', 'question']),
  verdict: z.enum(['yes', 'no']),
  reason: z.string(),
  /** Entity names and numbers the criterion states that neither the question nor the run's evidence contains. */
  flaggedUnsupportedFacts: z.array(z.string()),
});
export type CriterionVerdict = z.infer<typeof CriterionVerdictSchema>;

export const RewardsSchema = z.object({
  format: z.number(),
  answer: z.number().nullable(),
  reasoning: z.number(),
  /** R_format + α·1[correct] + p; null without a gold answer. */
  plain: z.number().nullable(),
  /** R_format + 1[correct]·(α + p); null without a gold answer. */
  gated: z.number().nullable(),
});

export const K2vReportSchema = z.object({
  runId: z.string(),
  /** 1 for a run's first verification, then 2, 3, … */
  version: z.number().int().min(1),
  criteria: z.array(CriterionVerdictSchema),
  /** p of eq. 5: over the instantiated checklist CL_x only. */
  passRate: z.number(),
  /** The general criteria's pass rate, reported apart (not part of p). */
  generalPassRate: z.number(),
  /** null when the question has no gold answer. */
  correct: z.boolean().nullable(),
  wellFormed: z.boolean(),
  alpha: z.number(),
  rewards: RewardsSchema,
  criteriaVersion: z.number().int(),
  /** The model (or the offline engine) that wrote the checklist and judged it. */
  verifier: z.string(),
  verifiedAt: z.string(),
});
export type K2vReport = z.infer<typeof K2vReportSchema>;

/** One stage of a verification (linking, the checklist, one judge per criterion) with its model calls, without prompts' secrets. */
export const VerificationStageSchema = z.object({
  kind: z.enum(['link', 'checklist', 'judge']),
  label: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  durationMs: z.number().int(),
  calls: z.array(
    z.object({
      role: z.string(),
      template: z.string(),
      templateVersion: z.number().int(),
      model: z.string(),
      messages: z.unknown(),
      output: z.string().nullable(),
      parsed: z.unknown(),
      tokensIn: z.number().int(),
      tokensOut: z.number().int(),
      latencyMs: z.number().int(),
      error: z.string().nullable(),
    }),
  ),
});
export type VerificationStage = z.infer<typeof VerificationStageSchema>;

/**
 * K2V verification as runs recorded it before verifications became records of
 * their own (lib/verify): no method records these kinds any more, but stored
 * traces hold them and the trace page still reads them.
 */
export const legacyVerifySteps = {
  verify: {
    output: K2vReportSchema.omit({ version: true, runId: true, verifiedAt: true }).extend({
      generalPassRate: K2vReportSchema.shape.generalPassRate.optional(),
    }),
  },
  'verify.judge': {
    output: z.object({ verdict: z.string(), reason: z.string().optional(), flaggedUnsupportedFacts: z.array(z.string()).optional() }),
    input: z.object({ text: z.string().optional(), source: z.string().optional() }),
  },
} as const;
