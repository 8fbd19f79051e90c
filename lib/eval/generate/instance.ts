import type { KgNode } from '@/lib/kg';
import type { Rng } from './random';
import type { EdgeDraw } from './stated';
import type { BiomedhopFamily, GoldGraph, QuestionPattern, Rendering } from './types';

/**
 * One instantiated graph pattern before it is rendered: the latent structure
 * BioMedHop renders as MCQ, open or count questions.
 */
export interface Instance {
  family: BiomedhopFamily;
  /** Which relation pairing, clue set or metapath of the family, e.g. "Disease–Gene–Disease". */
  variant: string;
  pattern: QuestionPattern;
  /** Every node the pattern admits in the whole KG: one for single-answer families, the counted set for counts. */
  answers: KgNode[];
  goldGraph: GoldGraph;
  /** Identifies the instance within a set, so a set never asks the same thing twice. */
  key: string;
  /** A relation the answer takes part in: distractors are drawn from nodes that take part in it too. */
  answerRelation: string;
  /** Nodes a distractor must not be joined to all of, by any edge, or it could pass for an answer. */
  guardIds: string[];
  /** Writes the question stem in one of the family's phrasings. */
  phrase(rng: Rng, rendering: Rendering): { text: string; template: string };
}

/** A question family: which renderings it supports and how it instantiates its pattern from the KG. */
export interface FamilyBuilder {
  family: BiomedhopFamily;
  renderings: readonly Rendering[];
  /** The family's variants that the loaded KG can serve, by name; empty when it has none. */
  variants(metaedges: Set<string>): string[];
  /** One validated instance from `variant`, or null when this draw found none; families seeded by an edge draw it with `draw`. */
  instantiate(variant: string, rng: Rng, draw: EdgeDraw): Promise<Instance | null>;
}

/** Picks one of a family's phrasings and records which. */
export function choosePhrasing<T>(rng: Rng, family: string, phrasings: readonly ((parts: T) => string)[], parts: T) {
  const i = rng.int(phrasings.length);
  return { text: phrasings[i](parts), template: `${family}/${i + 1}` };
}
