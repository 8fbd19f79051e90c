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
import type { RelationCue } from '@/lib/llm/offline/types';
import { otherEnd } from '@/lib/llm/offline/metaedges';

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
 * options, not a set. Within its own sentence, a pronoun after a clause
 * boundary takes up a set named before that boundary (`antecedentWithin`).
 */
export function setsTakenUp(text: string, words: KindWord[], named: Span[], options: boolean, relations: RelationCue[] = []): KindWord[] {
  const ends = [...text.matchAll(SENTENCE_END)].map((m) => m.index);
  const taken: KindWord[] = [];
  for (const m of text.matchAll(SET_PRONOUN)) {
    const at = m.index + m[0].length - m[1].length;
    const end = m.index + m[0].length;
    if (options && /^these$/i.test(m[1])) continue;
    if (words.some((w) => w.start >= end && /^\s+(?:[\p{L}-]+\s+)?$/u.test(text.slice(end, w.start)))) continue;
    const opens = Math.max(-1, ...ends.filter((e) => e < at));
    const within = antecedentWithin(text, words, opens + 1, { start: m.index, end }, relations);
    if (opens < 0 && !within) continue;
    const antecedent = within ?? words.filter((w) => !w.weak && w.end <= opens).at(-1);
    // "Two genes: CD274 and PDCD1. Which pathways hold both of them?": entities named after the kind word are what it takes
    // up, unless a relation joins them to the word ("Genes assoc w/ penile ca: … any of them") or the first is the subject of a
    // clause describing it ("the genes STAT3 regulates"): then they describe its set.
    const after = named.filter((n) => antecedent && n.start >= antecedent.end && n.end <= at);
    const describing = (n: Span) =>
      RELATIVE_OPENING.test(text.slice(antecedent!.end, n.start)) && relations.some((r) => r.start >= n.end && SUBJECT_GAP.test(text.slice(n.end, r.start)));
    if (after.length && !describing(after[0]) && !relations.some((r) => r.start >= antecedent!.end && r.end <= after[0].start)) continue;
    if (antecedent)
      taken.push({
        phrase: m[1],
        kind: antecedent.kind,
        start: at,
        end,
        plural: true,
        weak: false,
        ...(within ? { refers: { start: within.start, end: within.end } } : {}),
      });
  }
  return taken;
}

// Inside a sentence, a comma or "and" closes the clause that named a set a pronoun after it takes up.
const CLAUSE_BOUNDARY = /,|(?<![\p{L}])and(?![\p{L}])/giu;
// A kind word a question word asks for is the answer, no set taken up ("which compounds …", "which of these genes …").
const ASKED_BEFORE = /(?<![\p{L}])(?:which|what)\s+(?:[\p{L}-]+\s+){0,2}$/iu;
// The relation a pronoun is the subject of ("the genes they regulate") or the object of ("interacts with any of them").
const SUBJECT_GAP = /^[^\S\n]+(?:\p{L}+[^\S\n]+)?$/u;
// Between a kind word and the subject of the clause describing it ("the genes STAT3 regulates", "the diseases that X treats").
const RELATIVE_OPENING = /^[^\S\n]+(?:(?:that|which)[^\S\n]+)?$/iu;
const OBJECT_GAP = /^\s*(?:(?:to|with|of|by|in|on|for|from)\s+)?$/iu;

/**
 * "For the genes expressed in X, which pathways include the genes they
 * regulate?", "Take the compounds that palliate X and the diseases any of
 * them treat", "Given the drugs for X, which compounds resemble them?": a
 * plural pronoun takes up a set named in its own sentence before a clause
 * boundary (a comma, "and"), not the set whose clause it stands in nor the one
 * the question asks for. Of the kind words there, the nearest one whose kind
 * the relation governing the pronoun reaches, else the nearest.
 */
function antecedentWithin(text: string, words: KindWord[], from: number, pronoun: Span, relations: RelationCue[]): KindWord | null {
  const boundary = [...text.slice(from, pronoun.start).matchAll(CLAUSE_BOUNDARY)].at(-1);
  if (!boundary) return null;
  const candidates = words
    .filter((w) => !w.weak && !w.refers && w.start >= from && w.end <= from + boundary.index && !ASKED_BEFORE.test(text.slice(from, w.start)))
    .reverse();
  const governing = relations.filter(
    (r) =>
      (r.start >= pronoun.end && SUBJECT_GAP.test(text.slice(pronoun.end, r.start))) ||
      (r.end <= pronoun.start && OBJECT_GAP.test(text.slice(r.end, pronoun.start))),
  );
  return candidates.find((w) => governing.some((r) => r.metaedges.some((m) => otherEnd(m, w.kind) !== null))) ?? candidates[0] ?? null;
}
