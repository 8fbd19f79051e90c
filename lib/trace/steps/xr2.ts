import { z } from 'zod';
import { ClaimSchema, EvidenceLineSchema, LinkedEntitySchema, QuestionFrameSchema } from './common';

/** X-R2 (xr2.txt, Algorithm 1; lib/methods/xr2): Q and D, then per iteration decompose → extract → KG ∥ recall → reason → check. */

export const Xr2ReasonSchema = z.object({
  answer: z.array(z.string()),
  optionKey: z.string().nullable(),
  count: z.number().int().nullable(),
  abstain: z.boolean(),
  rationale: z.string(),
  claims: z.array(ClaimSchema),
  evidenceIds: z.array(z.string()),
});

export const Xr2CheckSchema = z.object({
  stop: z.boolean(),
  sufficient: z.boolean(),
  consistent: z.boolean(),
  reason: z.string(),
  missing: z.array(z.string()),
});

export const XR2_ACTIONS = ['stop', 'stop: nothing new to find', 'stop: T_max reached', 're-decompose'] as const;

export const Xr2DecompositionSchema = z.object({
  subquestions: z.array(z.string()),
  constraints: z.array(z.string()),
  required_evidence: z.array(z.string()),
  current: z.string(),
});

export const Xr2ExtractionSchema = z.object({
  entities: z.array(z.object({ mention: z.string(), kind: z.string().nullable() })),
  relations: z.array(
    z.object({
      entity: z.string(),
      metaedges: z.array(z.string()),
      direction: z.enum(['out', 'in', 'both']),
      targetKind: z.string().nullable(),
      cue: z.string().nullable(),
      negated: z.boolean(),
    }),
  ),
  answerKind: z.string().nullable(),
  outputFormat: z.enum(['single', 'list', 'count', 'option', 'yesno']),
  constraints: z.array(z.object({ type: z.string(), text: z.string() })),
  linked: z.array(LinkedEntitySchema),
  unresolved: z.array(z.string()),
  profiles: z.array(EvidenceLineSchema),
});

export const Xr2KgRetrievalSchema = z.object({
  units: z.array(z.object({ lines: z.array(EvidenceLineSchema) })),
  answerSet: z.array(EvidenceLineSchema),
  shown: z.string(),
  cues: z.array(z.string()),
  candidates: z.array(
    z.object({
      rank: z.number().int().nullable(),
      evidenceIds: z.array(z.string()),
      text: z.string(),
      coverage: z.number(),
      relation: z.number(),
      focus: z.number(),
      lexical: z.number(),
      score: z.number(),
      status: z.enum(['selected', 'candidate', 'shown earlier']),
    }),
  ),
  unexamined: z.number().int(),
  notes: z.array(z.string()),
});

export const Xr2LoopStateSchema = z.object({
  previous: z.object({ t: z.number().int(), current: z.string(), answer: Xr2ReasonSchema, check: Xr2CheckSchema, unexamined: z.number().int() }).nullable(),
  established: z.array(EvidenceLineSchema),
  sets: z.array(EvidenceLineSchema).optional(),
  shownEdges: z.array(z.number().int()),
  seenRefs: z.array(z.string()),
  action: z.enum(XR2_ACTIONS).nullable(),
  lastLines: z.array(EvidenceLineSchema),
});

export const xr2Steps = {
  'xr2.read': { output: QuestionFrameSchema.extend({ documents: z.array(EvidenceLineSchema) }) },
  'xr2.iteration': { output: Xr2LoopStateSchema, input: z.object({ t: z.number().int(), tMax: z.number().int() }) },
  'xr2.decompose': { output: Xr2DecompositionSchema },
  'xr2.extract': { output: Xr2ExtractionSchema },
  'xr2.kg': { output: Xr2KgRetrievalSchema },
  'xr2.recall': { output: z.object({ claims: z.array(EvidenceLineSchema), note: z.string().nullable() }) },
  'xr2.reason': { output: Xr2ReasonSchema },
  'xr2.check': { output: z.object({ verdict: Xr2CheckSchema, action: z.enum(XR2_ACTIONS) }) },
} as const;
