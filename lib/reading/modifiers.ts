/**
 * A kind word modified by an entity: after it in a prepositional phrase
 * ("drugs for gout", "medications against asthma", "genes for obesity") or
 * before it as a noun modifier ("asthma drugs", "gout medications", "obesity
 * genes"). The modifier names no relation of its own: it relates the two kinds
 * by their preferred relation (a compound for a disease treats it), unless a
 * relation phrase of the question fits better. The syntax fixes what it joins,
 * so the cue carries the preferred metaedge between the kind word's kind and
 * each reading of the entity, in the linker's order of readings: "the drugs for
 * gout cause" reads gout the disease a drug is for (CtD), not the side effect
 * "cause" stands next to.
 */

import type { RelationCue } from '@/lib/llm/offline/types';
import { metaedgesBetween } from '@/lib/llm/offline/metaedges';
import type { KindWord } from './kind-words';
import type { Mention } from './exclusion';

// Between the kind word and the entity after it: the preposition, with an article or a possessive at most.
const PREPOSITION = /^\s+(for|against)\s+(?:(?:the|a|an|his|her|their|my|your|our)\s+)?$/i;
// Between the entity and the kind word after it: a space or a hyphen ("asthma drugs", "gout-medications").
const NOUN_MODIFIER = /^(?:\s+|\s*-\s*)$/;

/** The cue joining a kind word and the entity it modifies: the kinds' preferred metaedge for each of the entity's readings, in order; loose where none joins them. */
function modifierCue(word: KindWord, mention: Mention, phrase: string, start: number, end: number): RelationCue {
  const metaedges = [...new Set(mention.flatMap((l) => metaedgesBetween(word.kind, l.kind).slice(0, 1)))];
  return { phrase, metaedges, start, end, generic: !metaedges.length, voice: 'active' };
}

/** "drugs for gout": a cue on the preposition. */
export function prepositionCues(text: string, words: KindWord[], mentions: Mention[]): RelationCue[] {
  const cues: RelationCue[] = [];
  for (const word of words) {
    for (const mention of mentions) {
      const found = PREPOSITION.exec(text.slice(word.end, mention[0].start));
      if (!found) continue;
      const start = word.end + found.index + found[0].indexOf(found[1]);
      cues.push(modifierCue(word, mention, found[1], start, start + found[1].length));
    }
  }
  return cues;
}

/** "asthma drugs": a cue on the gap between the entity and the kind word it modifies, named by both. */
export function nounModifierCues(text: string, words: KindWord[], mentions: Mention[]): RelationCue[] {
  return words.flatMap((word) =>
    mentions
      .filter((m) => m[0].end <= word.start && NOUN_MODIFIER.test(text.slice(m[0].end, word.start)))
      .map((m) => modifierCue(word, m, text.slice(m[0].start, word.end), m[0].end, word.start)),
  );
}
