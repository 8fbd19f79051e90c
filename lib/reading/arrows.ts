/**
 * A chain written as a note with arrows: "apraclonidine structural analogs ->
 * diseases they treat -> similar diseases: is vitiligo among them?",
 * "Ethyl loflazepate → similar compounds → diseases they treat → which
 * diseases resemble those?". The first part names the anchor (and may name
 * the first set: "Dx localizing to dermis -> …"); every later
 * part names the next set by a kind word, related to the set before it by the
 * relation phrase written in that part (else the kinds' preferred relation).
 * The last part's set is the answer; an entity of its kind named there after
 * it is a member asked about.
 */

import { otherEnd, sameKind, type NodeKind } from '@/lib/llm/offline/metaedges';
import type { Anchor, Hop, LocatedEntity, RelationCue } from '@/lib/llm/offline/types';
import { hopChoices, overlaps, type Span } from './attach';
import type { KindWord } from './kind-words';
import { ARROW } from './discourse';

export interface ArrowChain {
  anchor: Anchor;
  answerKind: NodeKind;
  /** The kind word naming the last set. */
  word: KindWord;
  /** An entity of the answer's kind named in the last part: its membership is asked. */
  member: LocatedEntity | null;
}

function parts(text: string): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (const m of text.matchAll(ARROW)) {
    spans.push({ start: from, end: m.index });
    from = m.index + m[0].length;
  }
  spans.push({ start: from, end: text.length });
  return spans;
}

const inside = (s: Span, part: Span) => s.start >= part.start && s.end <= part.end;

/** A place along the chain: a kind, where the text names it, and the relation phrases that may lead into it. */
interface Station {
  kind: NodeKind;
  span: Span;
  cues: RelationCue[];
}

/**
 * The chain an arrow note writes, when it has two arrows or more (one, where its first part names a set by a kind word) and
 * every later part names a kind; null otherwise.
 */
export function readArrowChain(text: string, mentions: LocatedEntity[][], words: KindWord[], relations: RelationCue[]): ArrowChain | null {
  const spans = parts(text);
  const first = mentions.find((m) => inside(m[0], spans[0]));
  if (spans.length < 2 || !first) return null;
  // "Dx localizing to dermis -> compounds palliating any of them?": a first part naming a set by a kind word and a relation
  // phrase starts the chain at that set, so one arrow is a chain already.
  const opening = relations.some((r) => inside(r, spans[0]))
    ? words.find((w) => !w.weak && inside(w, spans[0]) && !mentions.some((m) => overlaps(m[0], w)))
    : undefined;
  if (spans.length < 3 && !opening) return null;
  const sets: Station[] = [];
  for (const part of spans.slice(1)) {
    const word = words.find((w) => !w.weak && inside(w, part) && !mentions.some((m) => overlaps(m[0], w)));
    if (!word) return null;
    sets.push({ kind: word.kind, span: word, cues: relations.filter((r) => inside(r, part)) });
  }
  // "apraclonidine structural analogs -> …", "BRCA1 interactors -> …": a relation phrase after the anchor in the first part names a set of its own.
  const lead = opening ? undefined : relations.find((r) => inside(r, spans[0]) && r.start >= first[0].end);
  const start = opening ? [{ kind: opening.kind, span: opening as Span, cues: relations.filter((r) => inside(r, spans[0])) }] : [];
  let best: { entity: LocatedEntity; chain: Hop[]; cost: number } | null = null;
  for (const entity of first) {
    const leadKind = lead?.metaedges.map((abbr) => otherEnd(abbr, entity.kind)).find((k): k is NodeKind => !!k);
    const stations = [
      { kind: entity.kind, span: entity as Span, cues: [] },
      ...(leadKind ? [{ kind: leadKind, span: lead!, cues: [lead!] }] : []),
      ...start,
      ...sets,
    ];
    const chain: Hop[] = [];
    let cost = 0;
    for (let i = 1; i < stations.length; i++) {
      const choice = hopChoices(
        { kind: stations[i - 1].kind, spans: [stations[i - 1].span] },
        { kind: stations[i].kind, spans: [stations[i].span] },
        stations[i].cues,
      )[0];
      if (!choice) break;
      chain.push(choice.hop);
      cost += choice.cost;
    }
    if (chain.length === stations.length - 1 && (!best || cost < best.cost)) best = { entity, chain, cost };
  }
  if (!best) return null;
  const word = words.find((w) => w.start === sets.at(-1)!.span.start)!;
  const last = spans.at(-1)!;
  const member =
    mentions
      .filter((m) => m !== first && inside(m[0], last) && m[0].start >= word.end)
      .flatMap((m) => m.filter((l) => sameKind(l.kind, word.kind)))
      .at(0) ?? null;
  const { entity, chain } = best;
  const anchor: Anchor = { entity, chain, metaedges: chain[0].edges.map((e) => e.metaedge), cue: chain[0].cue, negated: false };
  return { anchor, answerKind: word.kind, word, member };
}
