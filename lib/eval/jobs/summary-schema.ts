import { z } from 'zod';
import { SUMMARY_VERSION, type EvalSummary } from './aggregate';

/**
 * The frozen evaluation tables as stored in `eval_jobs.summary` (JSON): read
 * back through this schema, never cast. A stored summary that does not fit
 * (another version, a damaged row) is recomputed from the items.
 */

const share = z.number().nullable();

const CellScoreSchema = z.object({
  method: z.string(),
  config: z.string(),
  items: z.number(),
  finished: z.number(),
  scored: z.number(),
  correct: z.number(),
  accuracy: share,
  wrong: z.number(),
  abstained: z.number(),
  abstainRate: share,
  grounding: share,
  errors: z.number(),
  avgSteps: share,
  avgIterations: share,
  avgCalls: share,
  avgTokensIn: share,
  avgTokensOut: share,
  tokensEstimated: z.boolean(),
  avgWallMs: share,
});

const FamilyTableSchema = z.object({
  columns: z.array(z.object({ family: z.string(), answerTypes: z.array(z.string()) })),
  rows: z.array(
    z.object({
      method: z.string(),
      config: z.string(),
      cells: z.record(z.string(), z.record(z.string(), share)),
      familyAvg: z.record(z.string(), share),
      overallAvg: share,
    }),
  ),
});

const CostPointSchema = z.object({
  method: z.string(),
  config: z.string(),
  accuracy: z.number(),
  avgCalls: z.number(),
  avgTokens: z.number(),
  tokensEstimated: z.boolean(),
  avgWallMs: z.number(),
});

const BucketSchema = z.enum(['needs-KG', 'needs-Entity', 'needs-Parametric', 'doc-sufficient', 'unresolved']);

const AttributionSummarySchema = z.object({
  referenceMethod: z.string(),
  counts: z.record(z.string(), z.record(BucketSchema, z.number())),
  bucketed: z.array(z.object({ bucket: BucketSchema, instances: z.number(), accuracy: z.record(z.string(), share) })),
});

export const StoredSummarySchema = z.object({
  version: z.literal(SUMMARY_VERSION),
  scores: z.array(CellScoreSchema),
  families: FamilyTableSchema,
  cost: z.array(CostPointSchema),
  attribution: AttributionSummarySchema.nullable(),
});

/** The stored summary when it is one of this version's shape; null otherwise (recompute it). */
export function storedSummary(json: unknown): EvalSummary | null {
  const parsed = StoredSummarySchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
