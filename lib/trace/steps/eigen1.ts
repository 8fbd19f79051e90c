import { z } from 'zod';
import { Channel } from '@/lib/db/generated/enums';
import { EVIDENCE_KINDS, TripleDataSchema } from '../types';
import { EvidenceRecordsSchema, LinkedEntitySchema, rowsSchema, SimilarityUseSchema, SolutionSchema, UsageSchema } from './common';

/** EIGEN-1 (eigen1.txt; lib/methods/eigen1): K monitored proposers, Corrector, HSR, QAIR rounds, Ranker, and the candidate lineage. */

/** A record as EIGEN-1's roles see it; retrieved ones say their channel and kind. */
export const Eigen1EvidenceSchema = z.object({
  id: z.string(),
  text: z.string(),
  triples: z.array(TripleDataSchema),
  channel: z.enum(Channel).optional(),
  kind: z.enum(EVIDENCE_KINDS).optional(),
});

export const Eigen1CandidateSchema = z.object({ id: z.string(), lane: z.number().int(), solution: SolutionSchema, evidence: z.array(Eigen1EvidenceSchema) });

/** A candidate named in a later stage: its evidence is in the output of the step that made it. */
const NamedCandidateSchema = Eigen1CandidateSchema.omit({ evidence: true });

const QualitySchema = z.object({ scores: z.object({ logic: z.number(), answer: z.number(), explanation: z.number() }), q: z.number(), passed: z.boolean() });

const AssessedSchema = z.object({
  candidate: Eigen1CandidateSchema,
  quality: QualitySchema,
  suggestion: z.string(),
  evaluation: z.string(),
  round: z.number().int(),
});

const InjectionSchema = z.object({
  index: z.number().int(),
  query: z.string(),
  retrieved: EvidenceRecordsSchema,
  aside: z.string(),
  usedIds: z.array(z.string()),
  queryBy: z.enum(['querier', 'window']),
  splice: z.string(),
  spliceOffset: z.number().int(),
  writtenBy: z.enum(['injector', 'raw-retrieval']),
  modelWritten: z.literal(false),
  usage: z.array(UsageSchema),
});

const WindowVerdictSchema = z.object({ start: z.number().int(), end: z.number().int(), needsRetrieval: z.boolean(), reason: z.string() });

const RecordRefSchema = z.object({ id: z.string(), text: z.string() });

/**
 * `eigen1.generation`: one monitored generation (a proposer's, corrector's or HSR refiner's reasoning),
 * with its monitor windows and the text spliced in per trigger. Fields added with the Table 3 switches are optional,
 * so earlier traces (proposers only, always querier and injector) stay readable.
 */
export const Eigen1GenerationSchema = z.object({
  stage: z.string().optional(),
  lane: z.number().int().optional(),
  text: z.string(),
  segments: z.array(z.object({ source: z.enum(['model', 'injected']), start: z.number().int(), end: z.number().int(), call: z.number().int().nullable() })),
  windows: z.array(WindowVerdictSchema.extend({ spliced: z.boolean() })),
  injections: z.array(
    InjectionSchema.extend({
      queryBy: InjectionSchema.shape.queryBy.optional(),
      retrieved: z.array(RecordRefSchema),
      usage: InjectionSchema.shape.usage.optional(),
    }),
  ),
  finishReason: z.string().optional(),
  continuation: z.enum(['continued', 'new-turn']).nullable().optional(),
  evidence: z.array(RecordRefSchema),
  /** MCQ: per option, the queries that named it and the injected records touching it (absent in earlier traces). */
  optionChecks: z
    .array(
      z.object({
        key: z.string(),
        option: z.string(),
        queries: z.array(z.string()),
        evidenceIds: z.array(z.string()),
        support: z.enum(['direct', 'indirect', 'none']).optional(),
        directIds: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  usage: z.array(UsageSchema).optional(),
});
type Eigen1Generation = z.infer<typeof Eigen1GenerationSchema>;

/** `eigen1.proposer`: one proposer's candidate solution, the evidence it saw, its injected asides and usage. */
export const Eigen1ProposerSchema = z.object({ candidate: Eigen1CandidateSchema, injections: z.number().int(), usage: z.array(UsageSchema) });
type Eigen1Proposer = z.infer<typeof Eigen1ProposerSchema>;

/**
 * A stage whose candidates its children's steps hold (Corrector, HSR): the ids of the versions it made and its usage
 * summed per stage; a resumed run makes it again from its replayed children.
 */
const RevisedSchema = z.object({ candidates: z.array(z.string()), usage: z.array(UsageSchema) });
const RevisedOneSchema = z.object({ candidate: Eigen1CandidateSchema, usage: z.array(UsageSchema) });

export const eigen1Steps = {
  'eigen1.read': {
    output: z.object({
      question: z.string(),
      options: z.record(z.string(), z.string()).nullable(),
      entities: z.array(LinkedEntitySchema),
      optionLinks: z.record(z.string(), z.array(LinkedEntitySchema)),
      context: z.array(Eigen1EvidenceSchema),
      retrieved: z.array(Eigen1EvidenceSchema),
    }),
  },
  /** Monitor off (ablation): the question's retrieval, up front. */
  'eigen1.explicit-rag': { output: z.array(RecordRefSchema) },
  'eigen1.proposer': { output: Eigen1ProposerSchema },
  'eigen1.generation': { output: Eigen1GenerationSchema },
  'eigen1.monitor': { output: WindowVerdictSchema.extend({ usage: z.array(UsageSchema) }) },
  'eigen1.injection': { output: InjectionSchema },
  'eigen1.querier': { output: z.object({ query: z.string(), by: z.enum(['querier', 'window']), usage: z.array(UsageSchema) }) },
  'eigen1.retrieval': {
    output: z.object({
      query: z.string(),
      records: EvidenceRecordsSchema,
      considered: z.number().int(),
      ranking: rowsSchema(z.object({ id: z.string(), sim: z.number(), inContext: z.boolean(), selected: z.boolean() })),
      /** Which similarity ranked the KG candidates; absent in traces recorded before embeddings. */
      similarity: SimilarityUseSchema.optional(),
      /** Explicit RAG: the KG triples each of the query's entities got of the split budget. */
      perEntity: z.array(z.object({ entity: z.string(), triples: z.number().int() })).optional(),
      notes: z.array(z.string()),
    }),
  },
  'eigen1.injector': {
    output: z.object({ aside: z.string(), usedIds: z.array(z.string()), by: z.enum(['injector', 'raw-retrieval']), usage: z.array(UsageSchema) }),
  },
  'eigen1.propose': { output: z.object({ solution: SolutionSchema, usage: UsageSchema }) },
  'eigen1.correction': { output: RevisedSchema },
  'eigen1.correct': { output: RevisedOneSchema },
  'eigen1.hsr': { output: RevisedSchema },
  'eigen1.refine': { output: RevisedOneSchema },
  /** Per round, the ids of the candidates scored and of their corrections (each round's step holds them), and the usage per stage. */
  'eigen1.qair': {
    output: z.object({ rounds: z.array(z.object({ scored: z.array(z.string()), corrected: z.array(z.string()) })), usage: z.array(UsageSchema) }),
  },
  /** The round's scores and corrections; each candidate without its evidence, which the step that made it holds (earlier traces' evidence is dropped when read). */
  'eigen1.qair-round': {
    output: z.object({
      scored: z.array(AssessedSchema.extend({ candidate: NamedCandidateSchema })),
      corrected: z.array(NamedCandidateSchema),
      usage: z.array(UsageSchema),
    }),
  },
  /** The candidate scored is named by id: the step that made it (and the round's scores) hold it. */
  'eigen1.evaluate': { output: z.object({ assessed: AssessedSchema.extend({ candidate: z.string() }), usage: UsageSchema }) },
  'eigen1.rank': { output: z.object({ index: z.number().int(), chosen: z.string(), reason: z.string(), usage: UsageSchema }) },
  'eigen1.lineage': {
    output: z.object({
      nodes: rowsSchema(
        z.object({
          id: z.string(),
          stage: z.enum(['proposal', 'correction', 'refinement', 'qair-evaluation', 'qair-correction', 'selection']),
          lane: z.number().int(),
          round: z.number().int().nullable(),
          answer: z.string(),
          abstained: z.boolean(),
          q: z.number().nullable(),
          scores: QualitySchema.shape.scores.nullable(),
          passed: z.boolean().nullable(),
        }),
      ),
      edges: rowsSchema(z.object({ from: z.string(), to: z.string(), relation: z.enum(['revises', 'anchor', 'reference', 'evaluates', 'selects']) })),
    }),
  },
} as const;
