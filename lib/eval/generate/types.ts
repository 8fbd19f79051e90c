import type { KgEdge, KgNode, MetapathHop } from '@/lib/kg';
import type { GoldAnswer } from '@/lib/eval/scoring';
import type { AnswerType } from '@/lib/methods/types';
import type { QuestionEvidence } from './evidence';

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
