import { z } from 'zod';
import { TripleDataSchema } from './types';

/**
 * The typed contract of step outputs: one zod schema per step kind whose
 * output a view reads field by field. The trace recorder checks a method's
 * output against its kind's schema when it records the step (a method that
 * drifts from the contract fails in its tests, not in a renderer), and the
 * renderers parse stored outputs through the same schema instead of guessing
 * shapes. Objects are open (extra fields pass), so a kind can grow. Client-safe.
 */

/** Which similarity a score table used (lib/nlp/similarity): embedding:<model>, or lexical and why. */
export const SimilarityUseSchema = z.object({
  kind: z.string(),
  measure: z.string(),
  why: z.string(),
  vectors: z.object({ texts: z.number().int(), cached: z.number().int(), embedded: z.number().int(), requests: z.number().int() }).optional(),
});

/** ReGraM `regram.mmr`: the candidate table of one hop's weighted MMR (regram.txt §3, step 3c–e). */
// Fields added after the first traces were recorded are optional, so those traces stay readable.
export const RegramCandidateTableSchema = z.object({
  similarity: SimilarityUseSchema.optional(),
  mmr: z.boolean().optional(),
  tieBreak: z.string().optional(),
  lambda: z.number(),
  k: z.number().int(),
  queries: z.array(z.string()),
  rows: z.array(
    z.object({
      evidenceId: z.string(),
      edgeId: z.number().int(),
      source: z.string(),
      relation: z.string(),
      target: z.string(),
      category: z.string().nullable(),
      wR: z.number(),
      simText: z.string(),
      sim: z.number(),
      relevance: z.number(),
      redundancy: z.number(),
      mmr: z.number(),
      nearest: z.string().nullable().optional(),
      rank: z.number().int().nullable(),
      order: z.number().int().optional(),
      tied: z.number().int().optional(),
      selected: z.boolean(),
    }),
  ),
});
export type RegramCandidateTable = z.infer<typeof RegramCandidateTableSchema>;

const RegionEntitySchema = z.object({ nodeId: z.string(), name: z.string(), kind: z.string() });

/** ReGraM `regram.region`: the query-aligned region G_q = (V_q, E_q) with its facts and allowed relations R. */
export const RegramRegionSchema = z.object({
  nodes: z.array(RegionEntitySchema.extend({ seed: z.boolean() })),
  edges: z.array(z.object({ evidenceId: z.string(), edgeId: z.number().int(), sourceId: z.string(), metaedge: z.string(), targetId: z.string() })),
  facts: z.array(z.object({ id: z.string(), text: z.string(), triple: TripleDataSchema.extend({ edgeId: z.number().int().nullable() }) })),
  relations: z.array(z.object({ metaedge: z.string(), verb: z.string(), sourceKind: z.string(), targetKind: z.string() })),
});
export type RegramRegion = z.infer<typeof RegramRegionSchema>;

const ClaimSchema = z.object({ text: z.string(), evidenceIds: z.array(z.string()) });

/** EIGEN-1 `eigen1.proposer`: one proposer's candidate solution, the evidence it saw, its injected asides and usage. */
export const Eigen1ProposerSchema = z.object({
  candidate: z.object({
    id: z.string(),
    lane: z.number().int(),
    solution: z.object({ answer: z.string(), items: z.array(z.string()), abstain: z.boolean(), claims: z.array(ClaimSchema), rationale: z.string() }),
    evidence: z.array(z.object({ id: z.string(), text: z.string() })),
  }),
  injections: z.number().int(),
  usage: z.array(z.object({ stage: z.string(), calls: z.number().int(), tokensIn: z.number(), tokensOut: z.number(), estimated: z.boolean() })),
});
export type Eigen1Proposer = z.infer<typeof Eigen1ProposerSchema>;

const RecordRefSchema = z.object({ id: z.string(), text: z.string() });

/**
 * EIGEN-1 `eigen1.generation`: one monitored generation (a proposer's, corrector's or HSR refiner's reasoning),
 * with its monitor windows and the text spliced in per trigger. Fields added with the Table 3 switches are optional,
 * so earlier traces (proposers only, always querier and injector) stay readable.
 */
export const Eigen1GenerationSchema = z.object({
  stage: z.string().optional(),
  lane: z.number().int().optional(),
  text: z.string(),
  segments: z.array(z.object({ source: z.enum(['model', 'injected']), start: z.number().int(), end: z.number().int(), call: z.number().int().nullable() })),
  windows: z.array(z.object({ start: z.number().int(), end: z.number().int(), needsRetrieval: z.boolean(), reason: z.string(), spliced: z.boolean() })),
  injections: z.array(
    z.object({
      index: z.number().int(),
      query: z.string(),
      queryBy: z.enum(['querier', 'window']).optional(),
      retrieved: z.array(RecordRefSchema),
      aside: z.string(),
      usedIds: z.array(z.string()),
      splice: z.string(),
      spliceOffset: z.number().int(),
      writtenBy: z.enum(['injector', 'raw-retrieval']),
    }),
  ),
  finishReason: z.string().optional(),
  continuation: z.enum(['continued', 'new-turn']).nullable().optional(),
  evidence: z.array(RecordRefSchema),
});
export type Eigen1Generation = z.infer<typeof Eigen1GenerationSchema>;

/** EIGEN-1 `eigen1.explicit-rag` (monitor off): the records retrieved with the question, up front, shown to every role. */
export const Eigen1ExplicitRagSchema = z.array(RecordRefSchema);

/** The schemas by step kind. */
export const STEP_OUTPUT_SCHEMAS = {
  'regram.mmr': RegramCandidateTableSchema,
  'regram.region': RegramRegionSchema,
  'eigen1.proposer': Eigen1ProposerSchema,
  'eigen1.generation': Eigen1GenerationSchema,
  'eigen1.explicit-rag': Eigen1ExplicitRagSchema,
} as const satisfies Record<string, z.ZodType>;

export type TypedStepKind = keyof typeof STEP_OUTPUT_SCHEMAS;
export type StepOutput<K extends TypedStepKind> = z.infer<(typeof STEP_OUTPUT_SCHEMAS)[K]>;

const schemaFor = (kind: string): z.ZodType | undefined => (Object.hasOwn(STEP_OUTPUT_SCHEMAS, kind) ? STEP_OUTPUT_SCHEMAS[kind as TypedStepKind] : undefined);

/** A method recorded an output its step kind's contract does not allow. */
export class StepContractError extends Error {
  constructor(kind: string, issues: string) {
    super(`The output of a ${kind} step breaks its contract (lib/trace/step-schemas.ts): ${issues}`);
  }
}

/** When recording: throws if `output` breaks the schema of `kind` (kinds without a schema pass). */
export function checkStepOutput(kind: string, output: unknown): void {
  const result = schemaFor(kind)?.safeParse(output);
  if (result && !result.success) throw new StepContractError(kind, z.prettifyError(result.error));
}

/** When reading: the stored output parsed through its kind's schema, or null (with why) when it does not fit. */
export function parseStepOutput<K extends TypedStepKind>(kind: K, output: unknown): { data: StepOutput<K>; error: null } | { data: null; error: string } {
  const result = STEP_OUTPUT_SCHEMAS[kind].safeParse(output);
  return result.success ? { data: result.data as StepOutput<K>, error: null } : { data: null, error: z.prettifyError(result.error) };
}
