/**
 * What a question sets aside: a member of the answer set ("other than
 * metformin", "besides A and B") or a set ("but not with B", "without causing
 * Y", "that B lacks"). A negation or exclusion reaches the entities of its own
 * clause only: those right after it, with any joined to them by "and", "or" or
 * commas ("not A or B" sets both aside), or, when nothing follows it in its
 * clause, the subject just before it ("symptoms of A that B doesn't have",
 * "which symptoms of A does B lack").
 */

import { sameKind, type NodeKind } from '@/lib/llm/offline/metaedges';
import type { LocatedEntity, QuestionCue, RelationCue } from '@/lib/llm/offline/types';
import type { Span } from './attach';
import { findKindWords } from './kind-words';

/** An entity mention with its alternative readings (same span, different kinds). */
export type Mention = LocatedEntity[];

/** Characters a negation or exclusion reaches to the first entity it governs. */
const REACH = 40;
// Between two entities of one coordinated run: commas, slashes, "and", "or", "nor", "as well as".
const RUN_GAP = /^[\s,/]*(?:(?:and|or|nor|as well as)(?![\p{L}])[\s,/]*)?$/iu;
// A break the cue does not reach across: a clause's punctuation or a dash.
const BREAK = /[,;:.?!—–]|\s-\s/;
// "other than those linked to B", "except the ones that …": the exclusion names a set by a clause, not a member.
const SET_BY_CLAUSE = /(?<![\p{L}])(?:those|ones?|that|which|who|whose)(?![\p{L}])/iu;
const SENTENCE_END = /[.?!](?=\s|$)/;
// After a negation that looks back: its verb at most ("… that B doesn't", "… B doesn't bind", "… does B lack"), no object of its own;
// a preposition stranded at the clause's end belongs to the verb ("… that B does not localize to?").
const VERB_ONLY = /^(?:\s+(?!(?:of|in|by|with|to|for|from|on|at|the|a|an)\b)[\p{L}'-]+){0,3}(?:\s+(?:of|in|by|with|to|for|from|on|at))?\s*$/iu;
// Between a subject and its negated verb: auxiliaries and adverbs only ("B doesn't", "B does not usually", "B seems to lack").
const SUBJECT_TO_VERB =
  /^(?:\s+(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|may|might|usually|typically|generally|commonly|often|also|seem|seems|appear|appears|to))*\s*$/i;

// A negated clause closing on a pronoun that takes up what was named before: "… but don't actually treat it", "without causing them".
const OBJECT_PRONOUN = /^(?:\s+[\p{L}'-]+){1,4}?\s+(?:it|them|this|that one)\s*(?:itself|themselves|at all|directly)?\s*[?.!]?\s*$/iu;

const isCue = (c: QuestionCue, ...kinds: QuestionCue['cue'][]) => kinds.includes(c.cue);

/**
 * "drugs used for symptom relief in type 1 diabetes but don't treat it", "genes associated with X that are not upregulated
 * in it": a negation whose clause relates the answer to a pronoun taking up the entity named just before (in the same
 * sentence) denies that relation to the same entity, while the entity's own relation stands. Returns the entity's mention,
 * where the pronoun stands, and the relation cues of the negated clause.
 */
export function negatedRetakes(
  questionCues: QuestionCue[],
  mentions: Mention[],
  relations: RelationCue[],
  text: string,
): { mention: Mention; at: Span; relations: RelationCue[] }[] {
  return questionCues.flatMap((cue) => {
    if (!isCue(cue, 'negation')) return [];
    const clauseRest = text.slice(cue.end).split(BREAK)[0];
    if (!OBJECT_PRONOUN.test(clauseRest)) return [];
    const pronoun = /(?<![\p{L}])(?:it|them|this|that one)(?![\p{L}])/iu.exec(clauseRest)!;
    const at = { start: cue.end + pronoun.index, end: cue.end + pronoun.index + pronoun[0].length };
    const own = relations.filter((r) => r.start >= cue.end && r.end <= at.start);
    const before = mentions.filter((m) => m[0].end <= cue.start && !SENTENCE_END.test(text.slice(m[0].end, cue.start))).at(-1);
    return own.length && before ? [{ mention: before, at, relations: own }] : [];
  });
}

/** The mentions a cue governs from after it: the first within reach in its clause and any coordinated with it. */
export function governedAfter(cue: Span, mentions: Mention[], text: string, allowSet = false): Mention[] {
  const after = mentions.filter((m) => m[0].start >= cue.end).sort((a, b) => a[0].start - b[0].start);
  const first = after[0];
  if (!first || first[0].start - cue.end > REACH) return [];
  const gap = text.slice(cue.end, first[0].start);
  const run = [first];
  for (const next of after.slice(1)) {
    if (!RUN_GAP.test(text.slice(run.at(-1)![0].end, next[0].start))) break;
    run.push(next);
  }
  // "apart from the genes TP53 interacts with": a kind word between names a set by its clause, as "those" does; one right before
  // the entity names the entity ("other than the drug colchicine", "besides the drugs A and B"), singular or before a run.
  const setWord = findKindWords(gap).some((w) => !w.weak && (/\S/.test(gap.slice(w.end)) || (w.plural && run.length < 2)));
  if (BREAK.test(gap) || (!allowSet && (SET_BY_CLAUSE.test(gap) || setWord))) return [];
  return run;
}

/**
 * A negation with nothing after it in its clause negates the subject just
 * before it ("… that hardening of the arteries doesn't?", "which symptoms of A
 * does B lack?"), within the sentence that asks for `focus` and after it:
 * context before the ask ("My son has asthma but isn't improving.") is not
 * read this way.
 */
function governedBefore(cue: QuestionCue, mentions: Mention[], text: string, focus: Span | null): Mention | null {
  if (!focus || cue.start < focus.end || SENTENCE_END.test(text.slice(focus.end, cue.start))) return null;
  const clauseRest = text.slice(cue.end).split(BREAK)[0];
  // "… without treating it": the entity before is the negated verb's object, taken up by the pronoun (negatedRetake), not its subject.
  if (OBJECT_PRONOUN.test(clauseRest)) return null;
  if (!VERB_ONLY.test(clauseRest) || mentions.some((m) => m[0].start >= cue.end && m[0].start < cue.end + clauseRest.length)) return null;
  const before = mentions.filter((m) => m[0].end <= cue.start && m[0].start >= focus.end).sort((a, b) => b[0].start - a[0].start)[0];
  if (!before || !SUBJECT_TO_VERB.test(text.slice(before[0].end, cue.start))) return null;
  return before;
}

/** Whether a negation or an exclusion cue governs the mention: it constrains the answer by what it must not relate to. */
export function isNegated(mention: Mention, questionCues: QuestionCue[], mentions: Mention[], text: string, focus: Span | null): boolean {
  return questionCues.some(
    (c) =>
      isCue(c, 'negation', 'exclusion') &&
      (governedAfter(c, mentions, text, true).includes(mention) || (isCue(c, 'negation') && governedBefore(c, mentions, text, focus) === mention)),
  );
}

/**
 * The entities an exclusion cue names as members set aside ("other than
 * amlodipine and lisinopril", "besides Crohn's disease", "leaving out ABCC2"):
 * each mention of the run after it that has a reading of the answer's kind.
 * Returns each such mention's reading with the cue that excluded it.
 */
export function excludedMembers(
  answerKind: NodeKind,
  questionCues: QuestionCue[],
  mentions: Mention[],
  text: string,
): { mention: Mention; entity: LocatedEntity; cue: QuestionCue }[] {
  const out: { mention: Mention; entity: LocatedEntity; cue: QuestionCue }[] = [];
  for (const cue of questionCues.filter((c) => isCue(c, 'exclusion'))) {
    for (const mention of governedAfter(cue, mentions, text)) {
      const entity = mention.find((l) => sameKind(l.kind, answerKind));
      if (!entity) break;
      out.push({ mention, entity, cue });
    }
  }
  return out;
}

// "which other genes", "what additional drugs", "the remaining symptoms": the answer's word says it excludes members named before it.
const OTHER_BEFORE = /(?<![\p{L}])(?:other|another|additional|remaining|further|more)\s+(?:[\p{L}-]+\s+)?$/iu;

/**
 * "Given that GPCPD1 is in the LPE pathway, which other genes take part in it?":
 * an answer asked for as "other K" sets aside the entities of its kind named
 * before its word (a member the question already knows), however they were
 * introduced. Each such mention's reading of the answer's kind.
 */
export function otherMembers(answerKind: NodeKind, focus: Span | null, mentions: Mention[], text: string): { mention: Mention; entity: LocatedEntity }[] {
  if (!focus || !OTHER_BEFORE.test(text.slice(Math.max(0, focus.start - 40), focus.start))) return [];
  return mentions.flatMap((mention) => {
    const entity = mention[0].end <= focus.start ? mention.find((l) => sameKind(l.kind, answerKind)) : undefined;
    return entity ? [{ mention, entity }] : [];
  });
}

/** No word names the answer: an entity set aside as a member is one of its kind ("What else besides sumatriptan is used for migraine?"). */
export function kindOfExcluded(questionCues: QuestionCue[], mentions: Mention[], text: string): NodeKind | null {
  for (const cue of questionCues.filter((c) => isCue(c, 'exclusion'))) {
    const run = governedAfter(cue, mentions, text);
    if (!run.length) continue;
    const kinds = run.map((m) => m[0].kind);
    if (kinds.every((k) => sameKind(k, kinds[0]))) return kinds[0];
  }
  return null;
}
