import { z } from 'zod';
import { TripleDataSchema } from '../types';
import { checkedOnce, ClaimSchema, EvidenceRecordsSchema, LinkedEntitySchema, SimilarityUseSchema } from './common';

/**
 * BioWeave (bioweave.txt, Algorithm 2; lib/methods/bioweave): initialise the
 * plan, then rounds of explore (KG paths, documents, web) → convert → verify →
 * select → refine → operator check → repair decision, then the verified answer.
 * Every stage step records its output beside its usage.
 */

const SOURCES = ['kg', 'doc', 'web'] as const;
const Source = z.enum(SOURCES);

const StageUsageSchema = z.object({
  stage: z.string(),
  calls: z.number().int(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  estimated: z.boolean(),
  ms: z.number(),
});

/** A stage step's output: what the stage produced, and its model calls, tokens and time. */
const staged = <T extends z.ZodType>(output: T) => z.object({ output, usage: StageUsageSchema });

const PlanHopSchema = z.object({ id: z.string(), fromKind: z.string(), toKind: z.string(), metaedges: z.array(z.string()), explicit: z.boolean() });

export const BioweavePlanSchema = z.object({
  mentions: z.array(z.string()),
  topicEntityIds: z.array(z.string()),
  answerType: z.enum(['entity', 'entity_list', 'integer', 'yes_no', 'option_letter']),
  answerKind: z.string().nullable(),
  operator: z.enum(['shared_neighbor', 'intersection', 'chain', 'count', 'lookup']),
  constraints: z.array(z.object({ id: z.string(), anchorId: z.string(), negated: z.boolean(), hops: z.array(PlanHopSchema) })),
  claims: z.array(z.object({ id: z.string(), subjectId: z.string(), objectId: z.string(), hop: PlanHopSchema, negated: z.boolean() })),
  excludedIds: z.array(z.string()),
  sourcePlan: z.array(Source),
  missingHops: z.array(z.string()),
  briefReason: z.string(),
});

const UnitEntitySchema = z.object({ nodeId: z.string(), name: z.string(), kind: z.string(), mention: z.string().optional() });

const UnitPathSchema = z.object({ id: z.string(), nodes: z.array(UnitEntitySchema), triples: z.array(TripleDataSchema), metapath: z.string() });

/** A unit's fields, its instances' as `paths` has them (in the unit's field order). */
const unitSchema = <P extends z.ZodType>(paths: P) =>
  z.object({
    id: z.string(),
    source: Source,
    round: z.number().int(),
    ref: z.string().nullable(),
    text: z.string(),
    entities: z.array(UnitEntitySchema),
    predicate: z.string().nullable(),
    relations: z.array(z.string()),
    hops: z.array(z.string()),
    span: z.object({ start: z.number().int(), end: z.number().int(), text: z.string() }).nullable(),
    provenance: z.array(z.string()),
    negated: z.boolean(),
    paths,
    pathScore: z.number().nullable(),
    operatorConsistent: z.boolean(),
  });

/** An evidence unit: a KG metapath with its instances, or a converted document or web span. */
export const BioweaveUnitSchema = checkedOnce(unitSchema(z.array(UnitPathSchema)));

/**
 * A KG unit as its step stores it: its instances are the path records its `channel.kg` children retrieved, stored once
 * there and referenced here (lib/methods/bioweave/subgraph.ts `kgUnitOf` makes the unit's paths from them). Traces
 * written before held each instance's nodes and triples again.
 */
const StoredKgUnitSchema = unitSchema(z.union([EvidenceRecordsSchema, z.array(UnitPathSchema)]));

/** The refined evidence graph: nodes and edges with the sources that state them, paths and units. */
export const RefinedGraphSchema = checkedOnce(
  z.object({
    /** 'on', or off with entity normalisation off (Table 8). */
    aliasMerging: z.string(),
    nodes: z.array(UnitEntitySchema.extend({ sources: z.array(Source), surfaces: z.array(z.string()), units: z.array(z.string()) })),
    edges: z.array(
      z.object({
        key: z.string(),
        sourceId: z.string(),
        metaedge: z.string(),
        targetId: z.string(),
        origin: z.enum(['kg', 'text']),
        sources: z.array(Source),
        evidenceIds: z.array(z.string()),
        corroboratedBy: z.array(z.object({ unitId: z.string(), how: z.enum(['predicate', 'co-mention']) })),
      }),
    ),
    paths: z.array(z.object({ id: z.string(), unitId: z.string(), text: z.string(), edgeKeys: z.array(z.string()), corroborated: z.boolean() })),
    units: z.array(
      z.object({ id: z.string(), source: Source, text: z.string(), negated: z.boolean(), entityIds: z.array(z.string()), evidenceIds: z.array(z.string()) }),
    ),
    merges: z.array(z.object({ into: z.string(), from: z.string(), reason: z.string() })),
    duplicatesCollapsed: z.number().int(),
    /** Aid `answer-set`: the question's complete answer sets beside the graph. */
    sets: z
      .array(
        z.object({
          id: z.string(),
          count: z.number().int(),
          members: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() })),
          anchors: z.array(z.string()),
          kind: z.string().nullable(),
          triples: z.array(TripleDataSchema),
        }),
      )
      .optional(),
  }),
);

/** The cross-verification table (s_rel, pool, r_prior, r_sup, r_kg, s_ver, s_cross) with its weights. */
export const ScoringTableSchema = z.object({
  // Runs recorded before embeddings named the similarity in words.
  similarity: z.union([SimilarityUseSchema, z.string()]),
  topicIds: z.array(z.string()),
  weights: z.record(z.string(), z.number()),
  rows: z.array(
    z.object({
      unitId: z.string(),
      source: Source,
      round: z.number().int(),
      text: z.string(),
      entities: z.array(z.string()),
      cos: z.number(),
      jaccard: z.number(),
      sRel: z.number(),
      inPool: z.boolean(),
      poolCut: z.string().nullable(),
      supporters: z.array(z.string()).nullable(),
      supp: z.array(Source).nullable(),
      rPrior: z.number().nullable(),
      rSup: z.number().nullable(),
      entitiesInGraph: z.array(z.string()).nullable(),
      rKg: z.number().nullable(),
      sVer: z.number().nullable(),
      sCross: z.number().nullable(),
      inTop: z.boolean(),
    }),
  ),
  top: z.array(z.string()),
});

const SelectionOutcomeSchema = checkedOnce(
  z.object({
    shown: z.array(z.string()),
    reused: z.boolean(),
    selected: z.array(z.object({ id: z.string(), reason: z.string() })),
    rejected: z.array(z.object({ id: z.string(), reason: z.string() })),
    briefReason: z.string(),
  }),
);

const StatedAnswerSchema = z.object({ decision: z.enum(['yes', 'no', 'maybe']), supportIds: z.array(z.string()), reason: z.string() });

export const OperatorCheckSchema = checkedOnce(
  z.object({
    satisfied: z.boolean(),
    reason: z.string(),
    missing: z.array(z.string()),
    missingHops: z.array(z.string()),
    derivation: z.array(z.string()),
    answers: z.array(z.object({ nodeId: z.string(), name: z.string(), supportIds: z.array(z.string()) })),
    count: z.number().int().nullable(),
    verdict: z.enum(['yes', 'no']).nullable(),
    stated: StatedAnswerSchema.nullable(),
  }),
);

const AttemptSchema = z.object({ kg: z.enum(['none', 'preferred', 'widened']), kgRounds: z.number().int(), doc: z.number().int(), web: z.number().int() });

const RoundPlanSchema = z.object({
  round: z.number().int(),
  targetHops: z.array(z.string()),
  sources: z.array(Source),
  frontier: z.record(z.string(), z.array(UnitEntitySchema)),
  missingHops: z.array(z.string()),
  queries: z.array(z.string()),
  reason: z.string(),
});

/** What a repair decision decided; a round's output says it again. */
const RepairVerdictSchema = z.object({ decision: z.enum(['answer', 'repair', 'stop']), reason: z.string(), missingHop: z.string().nullable() });

export const RepairDecisionSchema = checkedOnce(
  RepairVerdictSchema.extend({
    candidates: z.array(
      z.object({
        id: z.string(),
        description: z.string(),
        tried: AttemptSchema,
        canWiden: z.boolean(),
        capped: z.boolean(),
        relations: z.array(z.string()),
        frontier: z.array(z.string()),
      }),
    ),
    repair: z
      .object({
        repairNeeded: z.boolean(),
        missingHop: z.string().nullable(),
        targetEntities: z.array(z.string()),
        targetRelation: z.array(z.string()),
        updatedSourcePlan: z.array(Source),
        retrievalQueries: z.array(z.string()),
        briefReason: z.string(),
      })
      .nullable(),
    corrections: z.array(z.string()),
    plan: BioweavePlanSchema.nullable(),
    next: RoundPlanSchema.nullable(),
  }),
);

const TextRetrievalSchema = z.object({
  /** Names and aliases, or exact KG names only with entity normalisation off (Table 8). */
  entityMatching: z.string(),
  queries: z.array(z.string()),
  builtBy: z.string(),
  attached: z.number().int(),
  records: z.number().int(),
  spans: z.array(
    z.object({
      spanId: z.string(),
      source: z.enum(['doc', 'web']),
      recordId: z.string(),
      recordRef: z.string(),
      start: z.number().int(),
      end: z.number().int(),
      text: z.string(),
      mentions: z.array(z.object({ nodeId: z.string(), name: z.string(), mention: z.string() })),
      cue: z.string().nullable(),
      score: z.number(),
      alsoIn: z.array(z.string()),
    }),
  ),
  considered: z.number().int(),
  /** Which similarity scored the spans' relevance; absent in traces recorded before embeddings. */
  similarity: SimilarityUseSchema.optional(),
  notes: z.array(z.string()),
});

const SearchRecordSchema = z.object({
  origin: z.enum(['bidirectional', 'expansion']),
  from: z.array(z.string()),
  to: z.string().nullable(),
  maxDepth: z.number().int(),
  metaedges: z.array(z.string()),
  kinds: z.array(z.string()).nullable(),
  cap: z.number().int(),
  found: z.number().int(),
  capped: z.boolean(),
  hops: z.array(z.string()),
  open: z.array(z.string()),
});

/** The raw cap a round's KG searches reached: paths kept, and how many existed (a lower bound, "≥ kept"). */
const CapReachedSchema = z.object({ cap: z.number().int(), kept: z.number().int(), available: z.string() });

const AnswerSchema = z.object({
  answer: z.string(),
  normalizedAnswer: z.string(),
  optionKey: z.string().nullable(),
  items: z.array(z.string()),
  count: z.number().int().nullable(),
  supportingSources: z.array(Source),
  evidenceIds: z.array(z.string()),
  claims: z.array(ClaimSchema),
  needsRepair: z.boolean(),
  missingHop: z.string().nullable(),
  briefReason: z.string(),
});

export const bioweaveSteps = {
  'bioweave.init': {
    output: staged(
      z.object({
        frame: z.object({
          question: z.string(),
          options: z.record(z.string(), z.string()).nullable(),
          entities: z.array(LinkedEntitySchema),
          optionLinks: z.record(z.string(), z.array(LinkedEntitySchema)),
          aliases: z.record(z.string(), z.array(z.string())),
          enabledSources: z.array(Source),
          attachedDocuments: z.number().int(),
        }),
        plan: BioweavePlanSchema,
        corrections: z.array(z.string()),
        unfollowed: z.array(z.string()).optional(),
        excludedSources: z.array(z.object({ source: Source, reason: z.string() })),
      }),
    ),
  },
  // What the round tried and decided; its evidence memory, subgraph, selection, graph and check are its children's outputs.
  'bioweave.round': {
    output: z.object({
      round: z.number().int(),
      state: z.object({
        attempts: z.record(z.string(), AttemptSchema),
        coverage: z.object({ capped: z.array(z.string()), complete: z.array(z.string()) }),
      }),
      decision: RepairVerdictSchema,
      usage: z.array(StageUsageSchema),
    }),
  },
  'bioweave.plan': {
    output: RoundPlanSchema.extend({
      frontier: z.record(z.string(), z.array(z.string())),
      operator: BioweavePlanSchema.shape.operator,
      hops: z.array(PlanHopSchema),
    }),
  },
  'bioweave.kg': {
    output: staged(
      z.object({ searches: z.array(SearchRecordSchema), capped: CapReachedSchema.nullable(), notes: z.array(z.string()), units: z.array(StoredKgUnitSchema) }),
    ),
  },
  'bioweave.subgraph': {
    output: z.object({
      before: z.object({ nodes: z.number().int(), edges: z.number().int() }),
      after: z.object({ nodes: z.number().int(), edges: z.number().int() }),
      prunedNodes: z.array(z.object({ nodeId: z.string(), name: z.string(), kind: z.string(), reason: z.string() })),
      prunedEdges: z.array(z.object({ metaedge: z.string(), count: z.number().int(), reason: z.string() })),
      droppedPaths: z.number().int(),
      note: z.string(),
    }),
  },
  'bioweave.paths': {
    output: z.object({
      depths: z.array(
        z.object({
          depth: z.number().int(),
          paths: z.array(
            z.object({
              id: z.string(),
              text: z.string(),
              depth: z.number().int(),
              origin: z.enum(['bidirectional', 'expansion']),
              terms: z.object({
                entityCoverage: z.number(),
                relationCompatibility: z.number(),
                missingHopCoverage: z.number(),
                operatorConsistency: z.number(),
              }),
              score: z.number(),
            }),
          ),
        }),
      ),
    }),
  },
  'bioweave.doc': { output: staged(TextRetrievalSchema) },
  'bioweave.web': { output: staged(TextRetrievalSchema) },
  'bioweave.convert': {
    output: staged(
      z.object({
        converted: z.boolean(),
        units: z.array(BioweaveUnitSchema),
        corrections: z.array(z.string()),
        unused: z.array(z.string()),
        notes: z.string(),
      }),
    ),
  },
  'bioweave.verify': { output: staged(ScoringTableSchema) },
  'bioweave.select': { output: staged(SelectionOutcomeSchema) },
  'bioweave.refine': { output: staged(RefinedGraphSchema) },
  'bioweave.operator': { output: staged(OperatorCheckSchema) },
  'bioweave.repair': { output: staged(RepairDecisionSchema) },
  'bioweave.answer': {
    output: staged(
      z.object({
        answer: AnswerSchema,
        droppedEvidenceIds: z.array(z.string()),
        countCheck: z.object({ stated: z.number().nullable(), items: z.number().int(), distinct: z.number().int() }).nullable(),
        unsupportedAnswer: z.string().nullable(),
      }),
    ),
  },
} as const;
