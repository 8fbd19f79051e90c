/**
 * Yes/no on a chain's set: "Is X among the diseases associated with genes that
 * interact with Y?", "Is X a known side effect of any of the drugs used for
 * Z?". An entity X stands, through a copula or "among", before a kind word of
 * its own kind; that word names the set, read like a list question's answer
 * (anchors and chains towards it). X is a member of the set exactly when some
 * node one hop before the set's end joins both the rest of the chain and X:
 * the question becomes that existential one, whose evidence is the edges
 * meeting between the anchor and X (never a cut list of the set).
 */

import { otherEnd, sameKind, type NodeKind } from '@/lib/llm/offline/metaedges';
import type { Anchor, LocatedEntity, RelationCue } from '@/lib/llm/offline/types';
import { overlaps, reverseHop, type Span } from './attach';
import type { KindWord } from './kind-words';

// Between the member and the set's kind word: a copula, an adverb or two, "known as", then "among", "one of", "in", "part of", "a", "any of the"...
// A topic set off before the question may be taken up by a pronoun ("Betaxolol: is it among …", "Betaxolol — among …").
const MEMBER_GAP =
  /^[\s,:;—–-]*(?:(?:is|are|was|were|would|could|might|can)\s+(?:it|this|that|they)\s+)?(?:(?:is|are|was|were|be|being)\s+)?(?:(?:also|really|actually|truly|indeed|ever|still|itself)\s+)*(?:(?:known|listed|considered|classed|classified|counted|reported|found|documented|recogni[sz]ed|included)\s+(?:as\s+)?)?(?:among|amongst|one of|in|within|part of|(?:an?\s+)?members? of|included in|on the list of|an?|any)\s+(?:(?:the|those|these|all|any|of)\s+)*(?:(?:known|listed|reported|documented|recogni[sz]ed|established|possible|potential|same)\s+)?$/i;

// A gap that says membership by itself, with no copula asking it ("X — among the drugs …?").
const AMONG = /(?<![\p{L}])(?:among|amongst|one of|part of|members? of|included in)(?![\p{L}])/iu;

export interface Member {
  entity: LocatedEntity;
  /** The mention's index among the question's mentions. */
  index: number;
  /** The kind word naming the set. */
  word: KindWord;
}

/**
 * The first mention standing as a member of a set a following kind word of
 * its kind names, if any (`among`: only where the gap itself says membership); a relation noun whose relation reaches the
 * mention's kind names such a set too ("is sweat among the sites of …", "is
 * ABL1 one of the targets of …").
 */
export function memberOf(mentions: LocatedEntity[][], words: KindWord[], relations: RelationCue[], text: string, among = false, from = 0): Member | null {
  for (const [index, mention] of mentions.entries()) {
    const span = mention[0];
    // Only in the sentence that asks: "X is a chemical that binds some proteins. Is Y …?" introduces X.
    if (span.start < from) continue;
    const gapText = (w: Span) => text.slice(span.end, w.start);
    const after = (w: Span) => w.start >= span.end && MEMBER_GAP.test(gapText(w)) && (!among || AMONG.test(gapText(w)));
    const word = words.find(after);
    const entity = word && mention.find((l) => sameKind(l.kind, word.kind));
    if (word && entity) return { entity, index, word };
    const noun = relations.find(after);
    const member = noun && !word && mention.find((l) => noun.metaedges.some((m) => otherEnd(m, l.kind)));
    if (!noun || !member) continue;
    // "among the pharmacologic classes of …": a kind word overlapping the noun names the set itself.
    const named = words.find((w) => overlaps(w, noun) && sameKind(w.kind, member.kind));
    return { entity: member, index, word: named ?? { phrase: noun.phrase, kind: member.kind, start: noun.start, end: noun.end, plural: true, weak: false } };
  }
  return among ? null : includedIn(mentions, words, text, from);
}

// After the member, a word saying it is in a set named before ("…: lung cancer included, yes or no?", "is X one of them?").
const INCLUDED_AFTER =
  /^\s*(?:(?:is|are|was|were|be)\s+)?(?:(?:also|really|actually|even)\s+)?(?:included(?!\s+(?:in|among|on|within)\b)|among them|amongst them|one of them|part of (?:it|them|that (?:set|list|group))|in (?:there|that (?:set|list|group))|on (?:that|the) list)(?![\p{L}])/iu;

/**
 * A member named after its set, the set taken up by a word saying it is in it ("Diseases linked to CPS1's partners: lung
 * cancer included?", "Among the genes X regulates, is Y one of them?"): the set is the last plural kind word of the
 * member's kind before it.
 */
function includedIn(mentions: LocatedEntity[][], words: KindWord[], text: string, from: number): Member | null {
  for (const [index, mention] of mentions.entries()) {
    const span = mention[0];
    if (span.start < from || !INCLUDED_AFTER.test(text.slice(span.end))) continue;
    for (const word of words.filter((w) => w.plural && w.end <= span.start).reverse()) {
      const entity = mention.find((l) => sameKind(l.kind, word.kind));
      if (entity) return { entity, index, word };
    }
  }
  return null;
}

/**
 * The existential form of "is X in the set the anchor's chain reaches": the
 * answer moves one hop back along the chain, where the rest of the chain and X
 * (through the last hop, walked backwards) must meet. Null where the set is
 * not one chain of two hops or more from one anchor (a one-hop membership is a
 * claim on the pair, read as such).
 */
export function membershipAsMeeting(anchors: Anchor[], member: LocatedEntity): { anchors: Anchor[]; answerKind: NodeKind } | null {
  const resolved = anchors.filter((a) => a.chain.length);
  if (resolved.length !== 1 || resolved[0].negated || resolved[0].chain.length < 2) return null;
  const [anchor] = resolved;
  const last = anchor.chain.at(-1)!;
  const chain = anchor.chain.slice(0, -1);
  const back = reverseHop(last);
  return {
    answerKind: last.from,
    anchors: [
      { ...anchor, chain, metaedges: chain[0].edges.map((e) => e.metaedge), cue: chain[0].cue },
      { entity: member, chain: [back], metaedges: back.edges.map((e) => e.metaedge), cue: back.cue, negated: false },
    ],
  };
}
