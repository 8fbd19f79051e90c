/**
 * Shapes the offline rule kit reads and writes. All plain data, so a question's
 * understanding and an answer's derivation can be stored in the trace as-is.
 */

import type { EntityLink } from '@/lib/kg/types';
import type { NodeKind } from './metaedges';
import type { QuestionCue, RelationCue } from './cues';

/**
 * A mention linked to a KG node: the fields the kit reads from the entity
 * linker's EntityLink, so an EntityLink[] passes as-is. Offsets are optional
 * there; a link without them is located by its mention in the question. Two
 * links on the same span, or a link's `readings`, are alternative readings
 * ("bradycardia" as Symptom and as Side Effect); the question's relations pick one.
 */
export type LinkedEntity = Pick<EntityLink, 'nodeId' | 'kind' | 'name' | 'mention' | 'start' | 'end' | 'readings'> & { score?: number };

/** A linked entity whose place in the question is known. */
export type LocatedEntity = LinkedEntity & { start: number; end: number };

/** One metaedge a hop may follow, and which end of it the hop starts from. */
export interface HopEdge {
  metaedge: string;
  /** 'any' for the symmetric same-kind metaedges (GiG, GcG, DrD, CrC). */
  fromEnd: 'source' | 'target' | 'any';
}

/** One step from a node of kind `from` to nodes of kind `to`. */
export interface Hop {
  from: NodeKind;
  to: NodeKind;
  /** Metaedges to follow. When `explicit` is false, the first is the preferred reading and the rest a fallback. */
  edges: HopEdge[];
  /** The question's phrase for the relation; null when none was found and the kinds chose. */
  cue: string | null;
  explicit: boolean;
}

/** A linked entity that constrains the answer, and how it reaches the answer. */
export interface Anchor {
  entity: LocatedEntity;
  /** Metaedges of the anchor's first hop, preferred first. */
  metaedges: string[];
  cue: string | null;
  /** Hops from the anchor to the answer (one for a direct relation); empty when unresolved. */
  chain: Hop[];
  /** "... but not X": answers must NOT be reachable from this anchor. */
  negated: boolean;
}

/** A yes/no claim between two named entities ("Is BRCA1 associated with breast cancer?"). */
export interface Proposition {
  subject: LocatedEntity;
  object: LocatedEntity;
  /** From the subject's kind to the object's kind. */
  hop: Hop;
  negated: boolean;
}

export interface QuestionOption {
  letter: string;
  text: string;
  links: LinkedEntity[];
}

export type Operator = 'lookup' | 'shared_neighbor' | 'intersection' | 'path' | 'count' | 'yesno' | 'unknown';
export type OutputFormat = 'single' | 'list' | 'count' | 'option' | 'yesno';
export type AnswerType = 'entity' | 'entity_list' | 'integer' | 'yes_no' | 'option_letter';

export interface Understanding {
  question: string;
  /** The question without inline options. */
  stem: string;
  answerKind: NodeKind | null;
  /** What fixed the answer kind: a noun ("genes"), an adverb ("genetically"), the options' kinds, or a relation's far end. */
  answerKindFrom: 'noun' | 'adverb' | 'options' | 'relation' | null;
  operator: Operator;
  outputFormat: OutputFormat;
  answerType: AnswerType;
  anchors: Anchor[];
  /** The longest anchor chain, for path questions; the single hop otherwise. */
  hops: Hop[];
  propositions: Proposition[];
  options: QuestionOption[];
  cues: { relations: RelationCue[]; question: QuestionCue[] };
  /** 1–3 hop questions in English, for decompose roles. */
  subquestions: string[];
  /** What the rules could not resolve, in words, for the trace. */
  notes: string[];
}
