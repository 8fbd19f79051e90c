/**
 * Document passages to evidence units without a model: per sentence, the
 * candidate entities it mentions (by name or alias), the relation phrase that
 * joins them and whether the sentence negates it. A unit records what the text
 * says, with its span; it never becomes a KG fact. Also the PubMedQA-style
 * yes/no decision: "maybe" unless a sentence states the claim.
 */

import { BoundedMemo } from '@/lib/base/memo';
import { findQuestionCues } from '@/lib/reading/question-cues';
import { findRelationCues } from '@/lib/reading/relation-cues';
import { gap, overlaps } from '@/lib/reading/attach';
import { joins, type NodeKind } from './metaedges';
import { contentTerms, splitSentences, wordTokens, type Token } from './text';
import type { QuestionReading } from './types';

export interface CandidateEntity {
  nodeId: string;
  name: string;
  kind: NodeKind;
  aliases?: string[];
}

export interface EntityMention {
  nodeId: string;
  name: string;
  kind: NodeKind;
  /** The text as written. */
  mention: string;
  start: number;
  end: number;
}

export interface EvidenceUnit {
  passageId: string;
  sentence: number;
  entities: EntityMention[];
  /** The relation phrase between two mentioned entities whose kinds it fits; null when none. */
  predicate: { phrase: string; metaedges: string[]; start: number; end: number } | null;
  negated: boolean;
  /** The sentence, offsets into the passage text. */
  span: { start: number; end: number; text: string };
}

export interface Passage {
  id: string;
  text: string;
}

// One- and two-letter names ("AR", "T") match everywhere; they must be written exactly as given.
const SHORT_NAME = 2;

/** A name's or alias's words in normal form, kept: the same names are looked for in every sentence of every passage. */
const surfaceWords = new BoundedMemo<string, readonly string[]>(20_000);

/** Mentions of the candidates in the text: longest first, non-overlapping, in text order. */
export function findEntityMentions(text: string, candidates: CandidateEntity[]): EntityMention[] {
  const tokens = wordTokens(text);
  // Where each word is written: a name is tried only where its first word is.
  const positions = new Map<string, number[]>();
  for (const [i, t] of tokens.entries()) {
    const at = positions.get(t.text);
    if (at) at.push(i);
    else positions.set(t.text, [i]);
  }
  const found: EntityMention[] = [];
  for (const candidate of candidates) {
    for (const surface of new Set([candidate.name, ...(candidate.aliases ?? [])])) {
      const words = surfaceWords.get(surface, () => wordTokens(surface).map((t) => t.text));
      const starts = words.length ? positions.get(words[0]) : undefined;
      if (!starts) continue;
      const exactOnly = surface.trim().length <= SHORT_NAME;
      for (const i of starts) {
        if (!writtenAt(tokens, i, words)) continue;
        const span = spanOf(tokens, i, words.length);
        const mention = text.slice(span.start, span.end);
        if (exactOnly && mention !== surface.trim()) continue;
        found.push({ nodeId: candidate.nodeId, name: candidate.name, kind: candidate.kind, mention, ...span });
      }
    }
  }
  const kept: EntityMention[] = [];
  for (const m of found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)) {
    if (!kept.some((k) => overlaps(k, m))) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Whether the tokens from `first` on are the words (the first already known to be). */
function writtenAt(tokens: Token[], first: number, words: readonly string[]): boolean {
  if (first + words.length > tokens.length) return false;
  for (let j = 1; j < words.length; j++) if (tokens[first + j].text !== words[j]) return false;
  return true;
}

function spanOf(tokens: Token[], first: number, count: number): { start: number; end: number } {
  return { start: tokens[first].start, end: tokens[first + count - 1].end };
}

/** The relation phrase nearest to a pair of mentions whose kinds one of its metaedges joins; between the pair preferred. */
function predicateOf(sentence: string, offset: number, entities: EntityMention[]): EvidenceUnit['predicate'] {
  const cues = findRelationCues(sentence)
    .map((c) => ({ ...c, start: c.start + offset, end: c.end + offset }))
    .filter((c) => !entities.some((e) => overlaps(e, c)));
  let best: { cue: (typeof cues)[number]; metaedges: string[]; cost: number } | null = null;
  for (const [i, a] of entities.entries()) {
    for (const b of entities.slice(i + 1)) {
      if (a.nodeId === b.nodeId) continue;
      for (const cue of cues) {
        const metaedges = cue.metaedges.filter((abbr) => joins(abbr, a.kind, b.kind));
        if (!metaedges.length) continue;
        const between = cue.start >= a.end && cue.end <= b.start;
        const cost = (between ? 0 : 1000) + gap(a, cue) + gap(cue, b);
        if (!best || cost < best.cost) best = { cue, metaedges, cost };
      }
    }
  }
  return best && { phrase: best.cue.phrase, metaedges: best.metaedges, start: best.cue.start, end: best.cue.end };
}

/** One unit per sentence that mentions at least one candidate. */
export function extractEvidenceUnits(passage: Passage, candidates: CandidateEntity[]): EvidenceUnit[] {
  return splitSentences(passage.text).flatMap((sentence, index) => {
    const entities = findEntityMentions(sentence.text, candidates).map((m) => ({ ...m, start: m.start + sentence.start, end: m.end + sentence.start }));
    if (!entities.length) return [];
    return [
      {
        passageId: passage.id,
        sentence: index,
        entities,
        predicate: predicateOf(sentence.text, sentence.start, entities),
        negated: findQuestionCues(sentence.text).some((c) => c.cue === 'negation'),
        span: { start: sentence.start, end: sentence.end, text: sentence.text },
      },
    ];
  });
}

export interface StatedAnswer {
  decision: 'yes' | 'no' | 'maybe';
  /** Units or sentences that state it: `passageId:start-end`. */
  supportIds: string[];
  reason: string;
}

/** Share of the question's content terms a sentence must contain to count as stating it. */
const STATED_COVERAGE = 0.8;
// Auxiliaries are stopwords already; this is the one question word that is not.
const QUESTION_WORDS = new Set(['whether']);

function spanId(passageId: string, span: { start: number; end: number }): string {
  return `${passageId}:${span.start}-${span.end}`;
}

/**
 * Yes/no from passages. With propositions (entities linked in the question), a
 * sentence states a claim when it mentions both entities with a relation
 * phrase that fits the claimed relation; without, when it contains nearly all
 * of the question's content words. A negated statement says no; statements
 * that disagree, or none, say maybe.
 */
export function statedAnswer(
  question: Pick<QuestionReading, 'question' | 'propositions'>,
  passages: Passage[],
  candidates: CandidateEntity[] = [],
): StatedAnswer {
  const statements: { negated: boolean; id: string }[] = [];
  if (question.propositions.length) {
    for (const passage of passages) {
      for (const unit of extractEvidenceUnits(passage, candidates)) {
        const ids = new Set(unit.entities.map((e) => e.nodeId));
        const states = question.propositions.every(
          (p) => ids.has(p.subject.nodeId) && ids.has(p.object.nodeId) && !!unit.predicate?.metaedges.some((m) => p.hop.edges.some((e) => e.metaedge === m)),
        );
        if (states) statements.push({ negated: unit.negated, id: spanId(passage.id, unit.span) });
      }
    }
  } else {
    const wanted = new Set(contentTerms(question.question).filter((t) => !QUESTION_WORDS.has(t)));
    for (const passage of passages) {
      for (const sentence of splitSentences(passage.text)) {
        const terms = new Set(contentTerms(sentence.text));
        const covered = [...wanted].filter((t) => terms.has(t)).length / Math.max(1, wanted.size);
        if (wanted.size && covered >= STATED_COVERAGE) {
          statements.push({ negated: findQuestionCues(sentence.text).some((c) => c.cue === 'negation'), id: spanId(passage.id, sentence) });
        }
      }
    }
  }
  if (!statements.length) return { decision: 'maybe', supportIds: [], reason: 'no passage sentence states the claim' };
  const negatedClaim = question.propositions.some((p) => p.negated);
  const contradicts = new Set(statements.map((s) => s.negated !== negatedClaim));
  if (contradicts.size > 1) return { decision: 'maybe', supportIds: statements.map((s) => s.id), reason: 'passages state the claim both ways' };
  const decision = contradicts.has(true) ? 'no' : 'yes';
  return {
    decision,
    supportIds: statements.map((s) => s.id),
    reason: `${statements.length} sentence(s) state${decision === 'no' ? ' the negation of' : ''} the claim`,
  };
}
