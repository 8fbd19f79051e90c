import { z } from 'zod';
import { LinkedEntitySchema } from '@/lib/llm/offline/types';
import { AID_NAMES } from '@/lib/channels/aid-names';
import { Channel } from '@/lib/db/generated/enums';
import { EVIDENCE_KINDS, TripleDataSchema } from '../types';
import { checkedRecord, passed, passedBefore, recordChecked } from '../recorded';
import { passesAsTable } from '@/lib/base/zod-table';

/**
 * Shapes shared by the step contracts of every method: evidence records as the
 * recorder stores them, evidence lines as roles see them, entity links, the
 * question frame, answers and claims. Client-safe (zod only).
 */

export { LinkedEntitySchema, TripleDataSchema };

const ScoresSchema = z.record(z.string(), z.number().nullable());

/** What a channel retrieved, before the recorder numbers it (lib/trace/types EvidenceInput). */
export const EvidenceInputSchema = z.object({
  channel: z.enum(Channel),
  kind: z.enum(EVIDENCE_KINDS),
  ref: z.string(),
  text: z.string(),
  data: z.unknown().optional(),
  scores: ScoresSchema.nullish(),
  selected: z.boolean().optional(),
});

/** An evidence record of the run (lib/trace/types EvidenceRecord); step outputs store references to it. */
export const EvidenceRecordSchema = EvidenceInputSchema.extend({
  id: z.string(),
  ordinal: z.number().int(),
  stepId: z.string().nullable(),
  selected: z.boolean(),
});
const RecordListSchema = z.array(EvidenceRecordSchema);
type RecordList = z.output<typeof RecordListSchema>;

/**
 * Evidence records of the run. Records the recorder made are checked whole once, where an output first holds them
 * (../recorded.ts); a later output that holds only such records (ReGraM's candidates over its channel's records,
 * EIGEN-1's retrieval) stores references to them and passes as it is. A list that breaks the schema is checked record
 * by record, for its issues at their paths.
 */
export const EvidenceRecordsSchema = z.unknown().transform((value, ctx): RecordList => {
  if (Array.isArray(value) && value.every(checkedRecord)) return value as RecordList;
  // Checked as one table (../../base/zod-table): zod copied every record and its scores, ≈ a fifth of what a kg-rag run allocated.
  if (Array.isArray(value) && passesAsTable(EvidenceRecordSchema, value)) {
    for (const record of value) recordChecked(record);
    return value as RecordList;
  }
  const parsed = RecordListSchema.safeParse(value);
  if (!parsed.success) return issuesOf(parsed.error, ctx);
  for (const record of value as unknown[]) recordChecked(record);
  return parsed.data;
});

/** A list that failed as a table, checked row by row: its issues at their paths, added to the check it failed. */
function issuesOf(error: z.ZodError, ctx: z.RefinementCtx): never {
  for (const issue of error.issues) ctx.addIssue({ ...issue });
  return z.NEVER;
}

/**
 * A list of `row`s, checked as one table (../../base/zod-table): each field's schema over the list's distinct values,
 * the list passed as it is, not copied row by row (EIGEN-1's rankings are hundreds of rows a run). A list that breaks
 * the schema is checked row by row, for its issues at their paths.
 */
export function rowsSchema<S extends z.ZodObject>(row: S) {
  const list = z.array(row);
  return z.unknown().transform((value, ctx): z.output<typeof list> => {
    if (Array.isArray(value) && passesAsTable(row, value)) return value as z.output<typeof list>;
    const parsed = list.safeParse(value);
    return parsed.success ? parsed.data : issuesOf(parsed.error, ctx);
  });
}

/**
 * `schema`, checked once per value by a recorder (../recorded.ts): an output that holds again, at this schema, a value an
 * earlier output of the run held (ReGraM's hop over its region) passes it as
 * it is, as it was when first checked. Renderers and other checks without a recorder check it whole every time.
 */
export function checkedOnce<S extends z.ZodType>(schema: S) {
  return z.unknown().transform((value, ctx): z.output<S> => {
    if (passedBefore(schema, value)) return value as z.output<S>;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
      return z.NEVER;
    }
    passed(schema, value);
    return parsed.data;
  });
}

/** One evidence record as a role sees it: id, text and the triples behind a KG record (lib/methods/baselines/evidence). */
export const EvidenceLineSchema = z.object({
  id: z.string(),
  ref: z.string(),
  channel: z.enum(Channel),
  kind: z.enum(EVIDENCE_KINDS),
  text: z.string(),
  triples: z.array(TripleDataSchema),
  set: z
    .object({
      count: z.number().int(),
      members: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() })),
      anchors: z.array(z.string()),
      kind: z.string().nullable(),
    })
    .optional(),
});

const LinkReadingSchema = z.object({ nodeId: z.string(), kind: z.string(), name: z.string() });
const LinkMethodSchema = z.enum(['exact', 'alias', 'fuzzy']);
const LinkMatchSchema = z.enum([
  'exact',
  'alias',
  'gene-full-name',
  'fuzzy',
  'fuzzy-gene-full-name',
  'reordered',
  'gene-derived',
  'abbreviation',
  'lay-term',
  'narrower',
  'broader',
  'head-noun',
  'spelling-variant',
  'word-synonym',
  'gloss',
]);
const LinkAlternativeSchema = z.object({
  nodeId: z.string(),
  kind: z.string(),
  name: z.string(),
  matched: z.string(),
  match: LinkMatchSchema,
  confidence: z.number(),
});

/** A mention linked to a KG node by the entity linker (lib/kg EntityLink). */
export const EntityLinkSchema = z.object({
  nodeId: z.string(),
  kind: z.string(),
  name: z.string(),
  mention: z.string(),
  matched: z.string(),
  method: LinkMethodSchema,
  score: z.number(),
  match: LinkMatchSchema.optional(),
  confidence: z.number().optional(),
  edits: z.number().int().optional(),
  modifiers: z.string().optional(),
  start: z.number().int().optional(),
  end: z.number().int().optional(),
  readings: z.array(LinkReadingSchema).optional(),
  alternatives: z.array(LinkAlternativeSchema).optional(),
});

/** An entity-linking step: the links and the candidates turned down (lib/kg LinkReport). */
export const LinkReportSchema = z.object({
  links: z.array(EntityLinkSchema),
  rejected: z.array(
    z.object({
      mention: z.string(),
      start: z.number().int(),
      end: z.number().int(),
      nodeId: z.string(),
      name: z.string(),
      kind: z.string(),
      matched: z.string(),
      method: LinkMethodSchema,
      match: LinkMatchSchema.optional(),
      reason: z.string(),
    }),
  ),
});

/** The question as every role sees it, with its linked mentions and each option's. */
export const QuestionFrameSchema = z.object({
  question: z.string(),
  options: z.record(z.string(), z.string()).nullable(),
  entities: z.array(LinkedEntitySchema),
  optionLinks: z.record(z.string(), z.array(LinkedEntitySchema)),
});

export const ClaimSchema = z.object({ text: z.string(), evidenceIds: z.array(z.string()) });

/** A role's answer: text, option, list items, count, abstention, rationale and cited claims. */
export const SolutionSchema = z.object({
  answer: z.string(),
  optionKey: z.string().nullable(),
  items: z.array(z.string()),
  count: z.number().int().nullable(),
  abstain: z.boolean(),
  rationale: z.string(),
  claims: z.array(ClaimSchema),
});

/** Model calls and tokens of a stage (estimated: chars/4 where the backend reports none). */
export const UsageSchema = z.object({
  stage: z.string(),
  calls: z.number().int(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  estimated: z.boolean(),
});

/** Which similarity a score table used (lib/llm/similarity): embedding:<model>, or lexical and why. */
export const SimilarityUseSchema = z.object({
  kind: z.string(),
  measure: z.string(),
  why: z.string(),
  vectors: z.object({ texts: z.number().int(), cached: z.number().int(), embedded: z.number().int(), requests: z.number().int() }).optional(),
});

/** How a run's summary names it: "embedding:<model>", or "lexical (why)". */
export function similarityName(use: { kind: string; why: string }): string {
  return use.kind === 'lexical' ? `lexical (${use.why})` : use.kind;
}

/** The output of a skipped step (the recorder writes it). */
export const SkippedOutputSchema = z.object({ reason: z.string() });
/** The output of a failed step (the recorder writes it). */
export const FailedOutputSchema = z.object({ error: z.string() });

/** Steps every method records through the channels (lib/channels). */
export const channelSteps = {
  // Linking records a LinkReport (runs before rejections were kept: the bare links), profiles their records.
  'channel.entity': {
    output: z.union([LinkReportSchema, EvidenceRecordsSchema, z.array(EntityLinkSchema).transform((links) => ({ links, rejected: [] }))]),
    input: z.object({ text: z.string().optional(), mode: z.string().optional(), nodeIds: z.array(z.string()).optional() }),
  },
  'channel.doc': {
    output: z.union([
      EvidenceRecordsSchema,
      z.object({
        result: z.enum(['relevant passages', 'no relevant document']),
        entities: z.array(z.string()),
        rule: z.object({ kind: z.enum(['entity', 'question words']), why: z.string() }).optional(),
        // A corpus too small to calibrate admits nothing by score: threshold Infinity (null once stored as JSON).
        calibration: z.object({
          threshold: z.union([z.number(), z.literal(Infinity)]).nullable(),
          negatives: z.number(),
          documents: z.number(),
          method: z.string(),
        }),
        passages: EvidenceRecordsSchema,
        withheld: EvidenceRecordsSchema,
      }),
    ]),
  },
  'channel.kg': { output: EvidenceRecordsSchema },
  'channel.kg-shuffle': { output: z.array(EvidenceInputSchema) },
  'channel.param': { output: EvidenceRecordsSchema },
  'channel.web': { output: EvidenceRecordsSchema },
  // An aid at work (lib/channels/aids.ts): which one, what it did, and the evidence it added.
  'channel.aids': {
    output: z.object({ aid: z.enum(AID_NAMES as [string, ...string[]]), did: z.string(), evidence: EvidenceRecordsSchema }),
    input: z.object({ aid: z.string() }).passthrough(),
  },
} as const;

/** A method's answer (lib/methods/types MethodAnswer), where a step records it whole. */
export const MethodAnswerSchema = z.object({
  text: z.string(),
  optionKey: z.string().nullish(),
  items: z.array(z.string()).optional(),
  nodeIds: z.array(z.string()).optional(),
  count: z.number().nullish(),
  abstained: z.boolean(),
  evidenceIds: z.array(z.string()),
  claims: z.array(ClaimSchema),
  rationale: z.string().optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** A kind recorded only as skipped (its output is the recorder's `{reason}`): nothing may be recorded as its succeeded output. */
export const SKIPPED_ONLY = z.never();
