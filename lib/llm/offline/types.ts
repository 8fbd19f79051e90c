/**
 * Shapes the offline rule kit reads and writes. All plain data, so a question's
 * reading and an answer's derivation can be stored in the trace as-is. The
 * question reading is described by zod schemas (the types are inferred from
 * them), so a stored or model-written reading can be checked at a boundary.
 */

import { z } from 'zod';

const Kind = z.string().describe('A KG node kind: Gene, Disease, Compound, Side Effect, ...');

export const LinkReadingSchema = z.object({ nodeId: z.string(), kind: Kind, name: z.string() });

/**
 * A mention linked to a KG node: the fields the kit reads from the entity
 * linker's EntityLink, so an EntityLink[] passes as-is. Offsets are optional
 * there; a link without them is located by its mention in the question. Two
 * links on the same span, or a link's `readings`, are alternative readings
 * ("bradycardia" as Symptom and as Side Effect); the question's relations pick one.
 */
export const LinkedEntitySchema = LinkReadingSchema.extend({
  mention: z.string().describe('The text that was linked, as written'),
  start: z.number().int().optional(),
  end: z.number().int().optional(),
  readings: z.array(LinkReadingSchema).optional().describe('Nodes of other kinds the mention names as well'),
  score: z.number().optional(),
});
export type LinkedEntity = z.infer<typeof LinkedEntitySchema>;

/** A linked entity whose place in the question is known. */
export const LocatedEntitySchema = LinkedEntitySchema.extend({ start: z.number().int(), end: z.number().int() });
export type LocatedEntity = z.infer<typeof LocatedEntitySchema>;

/** One metaedge a hop may follow, and which end of it the hop starts from ('any' for the symmetric same-kind GiG, GcG, DrD, CrC). */
export const HopEdgeSchema = z.object({ metaedge: z.string().describe('Metaedge abbreviation, e.g. DaG'), fromEnd: z.enum(['source', 'target', 'any']) });
export type HopEdge = z.infer<typeof HopEdgeSchema>;

/** One step from a node of kind `from` to nodes of kind `to`. */
export const HopSchema = z.object({
  from: Kind,
  to: Kind,
  edges: z.array(HopEdgeSchema).describe('Metaedges to follow; when not explicit, the first is the preferred reading and the rest a fallback'),
  cue: z.string().nullable().describe("The question's phrase for the relation; null when none was found and the kinds chose"),
  explicit: z.boolean(),
});
export type Hop = z.infer<typeof HopSchema>;

/** A linked entity that constrains the answer, and how it reaches the answer. */
export const AnchorSchema = z.object({
  entity: LocatedEntitySchema,
  metaedges: z.array(z.string()).describe("Metaedges of the anchor's first hop, preferred first"),
  cue: z.string().nullable(),
  chain: z.array(HopSchema).describe('Hops from the anchor to the answer (one for a direct relation); empty when unresolved'),
  negated: z.boolean().describe('"... but not X": answers must NOT be reachable from this anchor'),
});
export type Anchor = z.infer<typeof AnchorSchema>;

/** A yes/no claim between two named entities ("Is BRCA1 associated with breast cancer?"). */
export const PropositionSchema = z.object({
  subject: LocatedEntitySchema,
  object: LocatedEntitySchema,
  hop: HopSchema.describe("From the subject's kind to the object's kind"),
  negated: z.boolean(),
});
export type Proposition = z.infer<typeof PropositionSchema>;

/** A multiple-choice option: a candidate answer, tested against the anchors' constraints, never an anchor itself. */
export const QuestionOptionSchema = z.object({ letter: z.string(), text: z.string(), links: z.array(LinkedEntitySchema) });
export type QuestionOption = z.infer<typeof QuestionOptionSchema>;

/** A phrase naming a KG relation, with the metaedges it can mean (see cues.ts). */
export const RelationCueSchema = z.object({
  phrase: z.string(),
  metaedges: z.array(z.string()).describe('Candidate metaedges, most likely reading first'),
  start: z.number().int(),
  end: z.number().int(),
  generic: z.boolean().describe('A loose linking word: when none of its metaedges joins the kinds at hand, any metaedge between them will do'),
  voice: z.enum(['active', 'passive']).describe('"regulated by X" names X as the agent: needed only for directed gene–gene Gr>G'),
});
export type RelationCue = z.infer<typeof RelationCueSchema>;

export const QUESTION_CUE_KINDS = ['count', 'list', 'single', 'negation', 'exclusion', 'comparison', 'shared', 'yesno', 'falsity'] as const;
export type QuestionCueKind = (typeof QUESTION_CUE_KINDS)[number];

/** A phrase that shapes the answer rather than the relation: counting, listing, yes/no, negation, exclusion, comparison, sharing. */
export const QuestionCueSchema = z.object({ phrase: z.string(), cue: z.enum(QUESTION_CUE_KINDS), start: z.number().int(), end: z.number().int() });
export type QuestionCue = z.infer<typeof QuestionCueSchema>;

export const OPERATORS = ['lookup', 'shared_neighbor', 'intersection', 'path', 'count', 'yesno', 'unknown'] as const;
export type Operator = (typeof OPERATORS)[number];
export const OUTPUT_FORMATS = ['single', 'list', 'count', 'option', 'yesno'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const ANSWER_TYPES = ['entity', 'entity_list', 'integer', 'yes_no', 'option_letter'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

/**
 * ONE reading of a question, shared by every method's offline rules: the
 * anchors (linked entities with their kinds and spans) and the relation chain
 * from each to the answer, the answer's kind and where that came from, the
 * operator and output format, yes/no claims, entities set aside, and the
 * multiple-choice options as candidates.
 */
export const QuestionReadingSchema = z.object({
  question: z.string(),
  stem: z.string().describe('The question without inline options'),
  answerKind: Kind.nullable(),
  answerKindFrom: z
    .enum(['noun', 'adverb', 'options', 'excluded', 'relation'])
    .nullable()
    .describe('What fixed the answer kind: a noun ("genes"), an adverb ("genetically"), the options\' kinds, or a relation\'s far end'),
  operator: z.enum(OPERATORS),
  outputFormat: z.enum(OUTPUT_FORMATS),
  answerType: z.enum(ANSWER_TYPES),
  anchors: z.array(AnchorSchema),
  hops: z.array(HopSchema).describe('The longest anchor chain, for path questions; the single hop otherwise'),
  propositions: z.array(PropositionSchema),
  excluded: z.array(LocatedEntitySchema).describe('Entities of the answer\'s kind the question sets aside ("other than metformin"): never an answer'),
  options: z.array(QuestionOptionSchema),
  stemEntities: z
    .array(LocatedEntitySchema)
    .describe('Every entity the stem names, each reading of each mention outside the options, context included: what MCQ options are tested against'),
  cues: z.object({ relations: z.array(RelationCueSchema), question: z.array(QuestionCueSchema) }),
  subquestions: z.array(z.string()).describe('1–3 hop questions in English, for decompose roles'),
  notes: z.array(z.string()).describe('What the rules could not resolve, in words, for the trace'),
});
export type QuestionReading = z.infer<typeof QuestionReadingSchema>;
