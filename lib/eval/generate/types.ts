import { z } from 'zod';
import type { KgEdge, KgNode, MetapathHop } from '@/lib/kg';
import type { GoldAnswer } from '@/lib/eval/scoring';
import type { AnswerType } from '@/lib/methods/types';

export const BIOMEDHOP_FAMILIES = ['shared_neighbor', 'intersection', 'path', 'count'] as const;
export type BiomedhopFamily = (typeof BIOMEDHOP_FAMILIES)[number];

export const RENDERINGS = ['mcq', 'open', 'count'] as const;
export type Rendering = (typeof RENDERINGS)[number];

/** What a node is to the question: named in it (anchor, clue, endpoint), passed through unnamed (bridge), or asked for. */
export type GoldNodeRole = 'anchor' | 'clue' | 'endpoint' | 'bridge' | 'answer';

/** The answer-determining subgraph: every node the question rests on and the KG edges (with ids) that join them. */
export interface GoldGraph {
  nodes: (KgNode & { role: GoldNodeRole })[];
  edges: KgEdge[];
}

/**
 * The graph pattern a question instantiates, stored in its meta so that anyone
 * can re-derive the answer from the KG. Endpoints and anchors are never answers.
 */
export type QuestionPattern =
  | { kind: 'shared_neighbor'; metaedge: string; anchorIds: string[]; answerKind: string }
  | { kind: 'intersection'; clues: { nodeId: string; metaedge: string }[]; answerKind: string }
  | { kind: 'hidden_middle'; metapath: MetapathHop[]; startId: string; endId: string; answerKind: string }
  | { kind: 'k2v'; metapath: MetapathHop[]; maskedIndex: number };

/** A question ready to store: the shape `saveQuestionSet` takes. */
export interface GeneratedQuestion {
  text: string;
  options: Record<string, string> | null;
  answer: GoldAnswer;
  answerType: AnswerType;
  family: string;
  goldGraph: GoldGraph;
  /** BioMedHop: the source-conditioned evidence bundles and their coverage (./evidence.ts). */
  evidence?: QuestionEvidence;
  meta: {
    generator: 'biomedhop' | 'k2v';
    seed: string;
    slot: number;
    rendering: Rendering;
    /** Which phrasing of the family wrote the text, e.g. "shared_neighbor/2". */
    template: string;
    pattern: QuestionPattern;
    [key: string]: unknown;
  };
}

/** The text sources a question's evidence may come from (BioMedHop's conditions; see ./evidence). */
export const EVIDENCE_SOURCES = ['kg', 'doc', 'web'] as const;
export type EvidenceSource = (typeof EVIDENCE_SOURCES)[number];

const HopsStated = z.array(z.number().int());

export const QuestionEvidenceSchema = z.object({
  condition: z.array(z.enum(EVIDENCE_SOURCES)).min(1),
  doc: z
    .object({ passages: z.array(z.object({ passageId: z.string(), documentId: z.string(), externalId: z.string().nullable(), states: HopsStated })) })
    .nullable(),
  web: z
    .object({ records: z.array(z.object({ id: z.string(), url: z.string().optional(), title: z.string(), snippet: z.string(), states: HopsStated })) })
    .nullable(),
  /** Gold edge ids, and which of them each text source of the condition states. */
  coverage: z.object({
    hops: z.array(z.number().int()),
    doc: HopsStated.nullable(),
    web: HopsStated.nullable(),
    /** full: the text sources together state every hop and each states one; partial: each states one; uncovered: one states none. */
    status: z.enum(['full', 'partial', 'uncovered', 'kg-only']),
    reason: z.string().nullable(),
  }),
});
export type QuestionEvidence = z.infer<typeof QuestionEvidenceSchema>;
