/**
 * A kind word modified by an entity: after it in a prepositional phrase
 * ("drugs for gout", "medications against asthma", "genes for obesity") or
 * before it as a noun modifier ("asthma drugs", "gout medications", "obesity
 * genes"). The modifier names no relation of its own: it relates the two kinds
 * by their preferred relation (a compound for a disease treats it), unless a
 * relation phrase of the question fits better. It is read as a loose linking
 * word: any metaedge between the kinds will do, nearer than a relation phrase
 * further off.
 */

import type { RelationCue } from '@/lib/llm/offline/types';
import type { KindWord } from './kind-words';
import type { Mention } from './exclusion';

// Between the kind word and the entity after it: the preposition, with an article or a possessive at most.
const PREPOSITION = /^\s+(for|against)\s+(?:(?:the|a|an|his|her|their|my|your|our)\s+)?$/i;
// Between the entity and the kind word after it: a space or a hyphen ("asthma drugs", "gout-medications").
const NOUN_MODIFIER = /^(?:\s+|\s*-\s*)$/;

const loose = (phrase: string, start: number, end: number): RelationCue => ({ phrase, metaedges: [], start, end, generic: true, voice: 'active' });

/** "drugs for gout": a cue on the preposition. */
export function prepositionCues(text: string, words: KindWord[], mentions: Mention[]): RelationCue[] {
  const cues: RelationCue[] = [];
  for (const word of words) {
    for (const mention of mentions) {
      const found = PREPOSITION.exec(text.slice(word.end, mention[0].start));
      if (!found) continue;
      const start = word.end + found.index + found[0].indexOf(found[1]);
      cues.push(loose(found[1], start, start + found[1].length));
    }
  }
  return cues;
}

/** "asthma drugs": a cue on the gap between the entity and the kind word it modifies, named by both. */
export function nounModifierCues(text: string, words: KindWord[], mentions: Mention[]): RelationCue[] {
  return words.flatMap((word) =>
    mentions
      .filter((m) => m[0].end <= word.start && NOUN_MODIFIER.test(text.slice(m[0].end, word.start)))
      .map((m) => loose(text.slice(m[0].start, word.end), m[0].end, word.start)),
  );
}
