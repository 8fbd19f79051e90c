/**
 * A relation named by a noun tied to an entity names a set: the entity's
 * neighbours by that relation ("imatinib's targets", "the targets of
 * imatinib", "imatinib targets", "TP53's interaction partners"). Where the
 * question relates that set on to the answer ("the pathways of imatinib's
 * targets", "diseases linked to TP53's interaction partners"), the set is an
 * intermediate of the chain, of the kind at the relation's far end. The noun
 * is told from a verb by its part of speech ("imatinib targets ABL1" is a claim).
 */

import { analyse } from '@/lib/nlp/english';
import { joins, otherEnd, sameKind, type NodeKind } from '@/lib/llm/offline/metaedges';
import type { LocatedEntity, RelationCue } from '@/lib/llm/offline/types';
import { overlaps, type Span } from './attach';
import { findKindWords } from './kind-words';
import type { Mention } from './exclusion';

export interface RelationNoun {
  entity: LocatedEntity;
  cue: RelationCue;
  /** The set's kind: the far end of the cue's first metaedge that touches the entity. */
  kind: NodeKind;
}

// Entity, then the noun: a possessive ("imatinib's targets"), or the entity as a noun modifier ("imatinib targets").
const POSSESSIVE = /^\s*['’]s?\s+$/;
const MODIFIER = /^\s+$|^\s*-\s*$/;
// The noun, then the entity: "targets of imatinib", "the interaction partners of the TP53 protein".
const NOUN_FIRST = /^\s+of\s+(?:the\s+)?$/i;
const NOUNS = new Set(['NOUN', 'PROPN']);
// "the genes that maprotiline upregulates": an entity opening a relative clause is its subject, the word after it its verb.
const RELATIVE_BEFORE = /(?<![\p{L}])(?:that|which|whom?)\s+$/iu;

/** "imatinib's targets", or with a kind word naming the entity again between ("CPS1's protein interaction partners"). */
function possessed(mention: Mention, between: string): boolean {
  if (POSSESSIVE.test(between)) return true;
  const own = /^\s*['’]s?\s+(\S.*?)\s+$/.exec(between);
  if (!own) return false;
  const words = findKindWords(own[1]);
  return words.length === 1 && words[0].start === 0 && words[0].end === own[1].length && mention.some((l) => sameKind(l.kind, words[0].kind));
}

/**
 * The relation nouns tied to an entity, where the set they name is not the
 * answer itself: its kind differs from the answer's, or a relation of the
 * kind to itself stands between the answer's word and the noun ("genes that
 * interact with imatinib's targets"). A kind word right after the noun names
 * the set already ("imatinib's target genes").
 */
export function relationNouns(
  text: string,
  mentions: Mention[],
  cues: RelationCue[],
  kindWords: Span[],
  answer: { kind: NodeKind; spans: Span[] },
): RelationNoun[] {
  const words = analyse(text);
  const found: RelationNoun[] = [];
  for (const cue of cues) {
    // A noun naming a kind ("pathway", "side effects") names its set as a kind word does.
    if (
      findKindWords(cue.phrase).length ||
      kindWords.some((w) => overlaps(w, cue)) ||
      kindWords.some((w) => w.start >= cue.end && /^\s+$/.test(text.slice(cue.end, w.start)))
    )
      continue;
    const last = words.filter((w) => w.start >= cue.start && w.end <= cue.end).at(-1);
    if (!last || !NOUNS.has(last.pos)) continue;
    // Written as a bare modifier ("imatinib targets"), the noun is a verb when an object or a preposition follows ("PELI1 interacts with").
    const next = words.find((w) => w.start >= cue.end);
    const bareNoun = !next || !['ADP', 'DET', 'NOUN', 'PROPN', 'PRON', 'NUM'].includes(next.pos);
    const mention = mentions.find(
      (m) =>
        (m[0].end <= cue.start && possessed(m, text.slice(m[0].end, cue.start))) ||
        (m[0].end <= cue.start && bareNoun && MODIFIER.test(text.slice(m[0].end, cue.start)) && !RELATIVE_BEFORE.test(text.slice(0, m[0].start))) ||
        (m[0].start >= cue.end && NOUN_FIRST.test(text.slice(cue.end, m[0].start))),
    );
    if (!mention) continue;
    for (const entity of mention) {
      const kind = cue.metaedges.map((m) => otherEnd(m, entity.kind)).find((k): k is NodeKind => k !== null);
      if (!kind) continue;
      const between = (r: RelationCue) => answer.spans.some((s) => (s.end <= r.start && r.end <= cue.start) || (r.start >= cue.end && s.start >= r.end));
      const apart = !sameKind(kind, answer.kind) || cues.some((r) => r !== cue && between(r) && r.metaedges.some((m) => joins(m, kind, kind)));
      if (apart) found.push({ entity, cue, kind });
      break;
    }
  }
  return found;
}
