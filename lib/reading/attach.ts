/**
 * Choosing the relation between two things a question mentions: an entity and
 * the answer, or a hidden intermediate and the answer. The rule: the nearest
 * relation phrase whose metaedges join the two kinds wins; when no phrase
 * fits, the kinds alone choose (Disease–Gene reads DaG, then DuG/DdG).
 */

import type { RelationCue } from '@/lib/llm/offline/types';
import { joins, metaedgeInfo, metaedgesBetween, sameKind, type NodeKind } from '@/lib/llm/offline/metaedges';
import type { Hop, HopEdge } from '@/lib/llm/offline/types';

export interface Span {
  start: number;
  end: number;
}

/** Characters between two spans; 0 when they touch or overlap. */
export function gap(a: Span, b: Span): number {
  return Math.max(0, Math.max(a.start, b.start) - Math.min(a.end, b.end));
}

export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The text with each span's characters turned to spaces: offsets kept, so later spans still point where they did. */
export function blankOut(text: string, spans: readonly Span[]): string {
  return spans.reduce((t, s) => t.slice(0, s.start) + ' '.repeat(s.end - s.start) + t.slice(s.end), text);
}

/** The spans no longer one contains: a name nested in a longer one ("disease" in "Crohn's disease") is left out. */
export function outermost<T extends Span>(spans: readonly T[]): T[] {
  return spans.filter((l) => !spans.some((x) => x.start <= l.start && x.end >= l.end && x.end - x.start > l.end - l.start));
}

/** One side of a relation: a kind and where the text mentions it (no spans: the answer was never named). */
export interface Mentioned {
  kind: NodeKind;
  spans: Span[];
}

export interface HopChoice {
  hop: Hop;
  /** Lower is better; comparable across choices for the same question. */
  cost: number;
  cue: RelationCue | null;
}

// Costs in characters of distance: a later reading in a cue's list, or a loose
// word standing in for any relation, must be a few words nearer to win.
const PREFERENCE_STEP = 2;
const GENERIC_PENALTY = 5;
const FAR_END_WEIGHT = 0.3;
const NO_CUE_COST = 1000;
// A relation phrase relates the words of its own sentence: a set it reaches only in another sentence is a few words further.
const OTHER_SENTENCE = 15;

/** The sentence each offset of a text lies in (sentences end at ".", "?", "!", ";" before a space, or a line break). */
export type SentenceOf = (at: number) => number;

export function sentencesOf(text: string): SentenceOf {
  const ends = [...text.matchAll(/[.?!;](?=\s)|\n/g)].map((m) => m.index);
  return (at) => ends.filter((e) => e < at).length;
}

function nearest(spans: Span[], to: Span): { span: Span | null; distance: number } {
  let best: { span: Span | null; distance: number } = { span: null, distance: 0 };
  for (const span of spans) {
    const distance = gap(span, to);
    if (!best.span || distance < best.distance) best = { span, distance };
  }
  return best;
}

/**
 * Which end of a metaedge the hop starts from. Only the directed gene–gene
 * Gr>G needs the sentence: "X regulates" / "regulators of X" / "regulated by X".
 */
function edgeFrom(abbr: string, from: NodeKind, fromSpan: Span | null, cue: RelationCue | null): HopEdge {
  const m = metaedgeInfo(abbr)!;
  if (m.directed) {
    if (!cue || !fromSpan) return { metaedge: abbr, fromEnd: 'any' };
    const before = fromSpan.end <= cue.start;
    const isSource = cue.voice === 'active' ? before : !before;
    return { metaedge: abbr, fromEnd: isSource ? 'source' : 'target' };
  }
  if (sameKind(m.source, m.target)) return { metaedge: abbr, fromEnd: 'any' };
  return { metaedge: abbr, fromEnd: sameKind(m.source, from) ? 'source' : 'target' };
}

/** Every way the text allows to relate `from` to `to`, cheapest first. */
export function hopChoices(from: Mentioned, to: Mentioned, cues: RelationCue[], sentenceOf?: SentenceOf): HopChoice[] {
  const choices: HopChoice[] = [];
  const defaults = metaedgesBetween(from.kind, to.kind);
  for (const cue of cues) {
    const near = nearest(from.spans, cue);
    const far = Math.min(
      ...(to.spans.length ? to.spans : [cue]).map(
        (s) => gap(s, cue) * FAR_END_WEIGHT + (sentenceOf && to.spans.length && sentenceOf(s.start) !== sentenceOf(cue.start) ? OTHER_SENTENCE : 0),
      ),
    );
    const fitting = cue.metaedges.filter((abbr) => joins(abbr, from.kind, to.kind));
    if (fitting.length) {
      const rank = cue.metaedges.indexOf(fitting[0]);
      choices.push({
        hop: { from: from.kind, to: to.kind, edges: fitting.map((abbr) => edgeFrom(abbr, from.kind, near.span, cue)), cue: cue.phrase, explicit: true },
        cost: near.distance + far + rank * PREFERENCE_STEP,
        cue,
      });
    } else if (cue.generic && defaults.length) {
      choices.push({
        hop: { from: from.kind, to: to.kind, edges: defaults.map((abbr) => edgeFrom(abbr, from.kind, near.span, cue)), cue: cue.phrase, explicit: false },
        cost: near.distance + far + GENERIC_PENALTY,
        cue,
      });
    }
  }
  if (defaults.length) {
    choices.push({
      hop: { from: from.kind, to: to.kind, edges: defaults.map((abbr) => edgeFrom(abbr, from.kind, null, null)), cue: null, explicit: false },
      cost: NO_CUE_COST,
      cue: null,
    });
  }
  return choices.sort((a, b) => a.cost - b.cost);
}

/** The same hop walked backwards (from the answer's side to the entity's). */
export function reverseHop(hop: Hop): Hop {
  const flip = (end: HopEdge['fromEnd']): HopEdge['fromEnd'] => (end === 'source' ? 'target' : end === 'target' ? 'source' : 'any');
  return { ...hop, from: hop.to, to: hop.from, edges: hop.edges.map((e) => ({ metaedge: e.metaedge, fromEnd: flip(e.fromEnd) })) };
}
