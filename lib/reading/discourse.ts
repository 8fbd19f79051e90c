/**
 * How a question's sentences refer to each other. A question is often written
 * in steps: a topic sentence naming an entity or a set, then the asking
 * sentence taking it up ("Take X. Which diseases does it palliate?", "X binds
 * some proteins. Which tissues express those?"), or a note whose parts are
 * joined by arrows ("Dx localizing to dermis -> # compounds palliating any of
 * them?"). The reader reads such notes as sentences, and a word taking up
 * what an earlier sentence named as standing for it, where it stands.
 */

import type { KindWord } from './kind-words';
import type { Span } from './attach';

/** The marks chaining a note's parts left to right: arrows, and ">" set off by spaces. */
export const ARROW = /\s*(?:-+>|=+>|[→⟶➔➜⇒])\s*|\s+>\s+/g;

/**
 * A note written with arrows as sentences, offsets kept: each arrow becomes a
 * sentence end, so what a part names is read like a sentence before the next.
 * Null where the text has no arrow.
 */
export function arrowsAsSentences(text: string): { text: string; last: number } | null {
  let last = -1;
  const prose = text.replace(ARROW, (m, at: number) => {
    last = at + m.length;
    return `.${' '.repeat(m.length - 1)}`;
  });
  return last < 0 ? null : { text: prose, last };
}

// Where a sentence ends (a sentence's end, a colon or semicolon, a dash set off by spaces, a line break).
const SENTENCE_END = /[.?!;:](?=\s|$)|\s[—–-](?=\s)|\n/g;
// A pronoun standing for a set, with the quantifier before it ("any of those", "them", "they").
const SET_PRONOUN = /(?<![\p{L}])(?:(?:any|each|some|one|all|none|many|most|which) of\s+)?(those|these|them|they)(?![\p{L}])/giu;

/**
 * The set a pronoun takes up from an earlier sentence: "Topiramate is used to
 * tx certain diseases. Which dx are similar to any of those?", "Compounds
 * upregulating CD46 -> protein targets they bind". A plural pronoun with no
 * kind word after it (that is a demonstrative, read where the kind word
 * stands) names the set of the last kind word before its sentence, where no
 * entity is named after that word (then the pronoun takes up the entities); it is read
 * as a word of that kind at the pronoun. "these" after "which of" points at
 * options, not a set.
 */
export function setsTakenUp(text: string, words: KindWord[], named: Span[], options: boolean, relations: Span[] = []): KindWord[] {
  const ends = [...text.matchAll(SENTENCE_END)].map((m) => m.index);
  const taken: KindWord[] = [];
  for (const m of text.matchAll(SET_PRONOUN)) {
    const at = m.index + m[0].length - m[1].length;
    const end = m.index + m[0].length;
    if (options && /^these$/i.test(m[1])) continue;
    if (words.some((w) => w.start >= end && /^\s+(?:[\p{L}-]+\s+)?$/u.test(text.slice(end, w.start)))) continue;
    const opens = Math.max(-1, ...ends.filter((e) => e < at));
    if (opens < 0) continue;
    const antecedent = words.filter((w) => !w.weak && w.end <= opens).at(-1);
    // "Two genes: CD274 and PDCD1. Which pathways hold both of them?": entities named after the kind word are what it takes
    // up, unless a relation joins them to the word ("Genes assoc w/ penile ca: … any of them"): then they describe its set.
    const after = named.filter((n) => antecedent && n.start >= antecedent.end && n.end <= at);
    if (after.length && !relations.some((r) => r.start >= antecedent!.end && r.end <= after[0].start)) continue;
    if (antecedent) taken.push({ phrase: m[1], kind: antecedent.kind, start: at, end, plural: true, weak: false });
  }
  return taken;
}
