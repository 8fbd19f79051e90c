import { z } from 'zod';
import { TripleDataSchema } from '../types';
import { checkedOnce, EntityLinkSchema, EvidenceRecordsSchema, MethodAnswerSchema, QuestionFrameSchema, SimilarityUseSchema, SKIPPED_ONLY } from './common';

/** ReGraM (regram.txt, Algorithm 1; lib/methods/regram): domain typing, hops, per hop link → candidates → MMR region → mode → hypotheses → answer, then synthesis. */

const MODES = ['KG-STRICT', 'HYBRID', 'LLM-GUESS'] as const;

const RegionEntitySchema = z.object({ nodeId: z.string(), name: z.string(), kind: z.string() });

/** A region fact or an accepted hypothesis (a hypothesis has no KG edge id). */
export const FactSchema = z.object({ id: z.string(), text: z.string(), triple: TripleDataSchema.extend({ edgeId: z.number().int().nullable() }) });

/** `regram.mmr`: the candidate table of one hop's weighted MMR (regram.txt §3, step 3c–e). */
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
      named: z.boolean().optional(),
      tied: z.number().int().optional(),
      selected: z.boolean(),
    }),
  ),
});
export type RegramCandidateTable = z.infer<typeof RegramCandidateTableSchema>;

/** `regram.region`: the query-aligned region G_q = (V_q, E_q) with its facts and allowed relations R. */
export const RegramRegionSchema = checkedOnce(
  z.object({
    nodes: z.array(RegionEntitySchema.extend({ seed: z.boolean() })),
    edges: z.array(z.object({ evidenceId: z.string(), edgeId: z.number().int(), sourceId: z.string(), metaedge: z.string(), targetId: z.string() })),
    facts: z.array(FactSchema),
    relations: z.array(z.object({ metaedge: z.string(), verb: z.string(), sourceKind: z.string(), targetKind: z.string() })),
  }),
);
type RegramRegion = z.infer<typeof RegramRegionSchema>;

const ProposedTripleSchema = z.object({ head: z.string(), relation: z.string(), tail: z.string() });

/** One hypothesis of the verify–revise loop, with the programmatic check and the Reviewer's score. */
export const HypothesisRecordSchema = z.object({
  id: z.string(),
  parent: z.string().nullable(),
  round: z.number().int(),
  triple: ProposedTripleSchema,
  resolved: z.object({
    head: RegionEntitySchema.nullable(),
    tail: RegionEntitySchema.nullable(),
    metaedge: z.string().nullable(),
    source: RegionEntitySchema.nullable(),
    target: RegionEntitySchema.nullable(),
  }),
  check: z.object({
    headInRegion: z.boolean(),
    tailInRegion: z.boolean(),
    relationAllowed: z.boolean(),
    kindsFit: z.boolean(),
    inKg: z.boolean().nullable(),
    inRegion: z.boolean(),
  }),
  judge: z.object({ score: z.number(), reason: z.string() }).nullable(),
  score: z.number(),
  verdict: z.enum(['accepted', 'rejected', 'unreviewed']),
  evidenceId: z.string().nullable(),
  revisedBy: z.string().nullable(),
});

export const HopAnswerSchema = z.object({
  answer: z.string(),
  items: z.array(z.string()),
  evidenceIds: z.array(z.string()),
  abstain: z.boolean(),
  rationale: z.string(),
});

const EvidenceMapEntrySchema = z.object({
  hop: z.number().int(),
  question: z.string(),
  mode: z.enum(MODES),
  answer: z.string(),
  items: z.array(RegionEntitySchema),
  abstained: z.boolean(),
  facts: z.array(FactSchema),
  hypotheses: z.array(FactSchema),
});

export const regramSteps = {
  'regram.read': { output: QuestionFrameSchema },
  'regram.domain': { output: z.object({ domain: z.string().nullable(), reason: z.string(), weights: z.record(z.string(), z.number()) }) },
  'regram.decompose': {
    output: z.object({
      hops: z.array(z.object({ hop: z.number().int(), question: z.string(), usesHop: z.number().int().nullable() })),
      analysis: z.string(),
      fallback: z.string().nullable(),
      dropped: z.array(z.string()),
    }),
  },
  'regram.hop': {
    output: z.object({
      hop: z.number().int(),
      question: z.string(),
      usesHop: z.number().int().nullable(),
      mode: z.enum(MODES),
      region: RegramRegionSchema,
      hypotheses: z.array(FactSchema),
      answer: HopAnswerSchema,
      entities: z.array(RegionEntitySchema),
      options: z
        .array(
          z.object({
            option: z.string(),
            name: z.string(),
            place: z.enum(['region', 'candidate', 'outside']),
            edges: z.number().int(),
            beyondCap: z.number().int(),
          }),
        )
        .optional(),
    }),
  },
  'regram.link': {
    output: z.object({
      links: z.array(EntityLinkSchema),
      rejectedFuzzy: z.array(z.object({ mention: z.string(), matched: z.string(), ratio: z.number() })),
      nodes: z.array(
        RegionEntitySchema.extend({
          mention: z.string().nullable(),
          method: z.string(),
          score: z.number().nullable(),
          ratio: z.number().optional(),
          from: z.string(),
        }),
      ),
      expansions: z.array(z.object({ mention: z.string(), name: z.string(), method: z.string() })),
      simQueries: z.array(z.string()),
      relationQuery: z.string(),
    }),
  },
  'regram.candidates': {
    output: z.object({
      enabled: z.boolean(),
      note: z.string().nullable(),
      hubCap: z.number().int(),
      caps: z.array(
        RegionEntitySchema.extend({
          kept: z.number().int(),
          capped: z.boolean(),
          relations: z.array(
            z.object({ metaedge: z.string(), weight: z.number(), relevance: z.number(), available: z.number().int().nullable(), kept: z.number().int() }),
          ),
        }),
      ),
      optionEdges: z
        .array(z.object({ option: z.string(), nodeId: z.string(), name: z.string(), edges: z.number().int(), beyondCap: z.number().int() }))
        .optional(),
      records: EvidenceRecordsSchema,
      duplicates: z.number().int(),
    }),
  },
  'regram.mmr': { output: RegramCandidateTableSchema, input: z.object({ domain: z.string().nullable().optional() }) },
  'regram.region': { output: RegramRegionSchema },
  'regram.mode': {
    output: z.object({ mode: z.enum(MODES), why: z.string(), nFacts: z.number().int() }),
    input: z.object({ nFacts: z.number().int(), strictMinFacts: z.number().int(), hybridMinFacts: z.number().int() }),
  },
  'regram.hypotheses': { output: z.object({ reviewer: z.string(), records: z.array(HypothesisRecordSchema), accepted: z.array(FactSchema) }) },
  'regram.hypothesize': { output: z.array(ProposedTripleSchema) },
  'regram.review': { output: HypothesisRecordSchema },
  'regram.revise': { output: ProposedTripleSchema.nullable() },
  'regram.hop-answer': {
    output: z.object({
      answer: HopAnswerSchema,
      entities: z.array(RegionEntitySchema),
      cited: z.array(z.string()),
      outside: z.object({ items: z.array(z.string()), evidenceIds: z.array(z.string()) }),
    }),
  },
  /** Recorded only when the param switch keeps LLM-GUESS from answering. */
  'regram.guess': { output: SKIPPED_ONLY },
  'regram.evidence-map': { output: z.array(EvidenceMapEntrySchema) },
  'regram.synthesis': { output: MethodAnswerSchema },
} as const;
