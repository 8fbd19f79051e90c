/**
 * How the offline engine reads ReGraM's inputs with the rule kit: the whole
 * question, a hop question whose "these <kind>" points at an earlier hop's
 * answers, and facts as the kit's evidence bundle.
 */

import type { EvidenceBundle } from '@/lib/llm/offline/evidence';
import { kindPlural, sameKind } from '@/lib/llm/offline/metaedges';
import type { LinkedEntity, QuestionReading } from '@/lib/llm/offline/types';
import { readingOf, readQuestion } from '@/lib/reading';
import { thesePhrase } from '../anchors';
import type { AbsenceFact, Fact, HopQuestion, QuestionFrame } from '../templates';

export function understandFrame(frame: QuestionFrame): QuestionReading {
  return readingOf(frame);
}

/** Facts as the kit's evidence: triples to walk, and the region's absences as the checks a "no" rests on. */
export function bundleOf(facts: Fact[], absences: AbsenceFact[] = []): EvidenceBundle {
  return {
    checks: absences.map(({ id, fromId, toId, metaedges }) => ({ id, fromId, toId, metaedges })),
    triples: facts.map(({ id, triple: t }) => ({
      id,
      sourceId: t.sourceId,
      sourceName: t.sourceName,
      sourceKind: t.sourceKind,
      metaedge: t.metaedge,
      targetId: t.targetId,
      targetName: t.targetName,
      targetKind: t.targetKind,
    })),
  };
}

export interface HopReading {
  /** One understanding, or one per earlier answer standing in for "these <kind>". */
  readings: QuestionReading[];
  /** "Which of these genes …": answers must be among the earlier hop's. */
  keep: Set<string> | null;
  note: string | null;
}

/**
 * "Which of these genes are associated with X?" asks for genes, so "these
 * genes" narrows the answers to the earlier hop's; "Which compounds treat
 * these diseases?" asks from them, so each earlier answer is read in place of
 * the phrase and the readings' answers are pooled.
 */
export function readHop(hop: HopQuestion): HopReading {
  const base = readQuestion(hop.question, { links: hop.links });
  const prior = hop.prior && !hop.prior.abstained ? hop.prior : null;
  for (const kind of new Set(prior?.items.map((i) => i.kind) ?? [])) {
    const phrase = thesePhrase(kind).exec(hop.question);
    if (!phrase) continue;
    const items = prior!.items.filter((i) => sameKind(i.kind, kind));
    if (base.answerKind && sameKind(base.answerKind, kind)) {
      return {
        readings: [base],
        keep: new Set(items.map((i) => i.nodeId)),
        note: `answers narrowed to hop ${prior!.hop}'s ${items.length} ${kindPlural(kind)}`,
      };
    }
    const readings = items.map((item) => {
      const end = phrase.index + phrase[0].length;
      const shift = item.name.length - phrase[0].length;
      const text = hop.question.slice(0, phrase.index) + item.name + hop.question.slice(end);
      const links: LinkedEntity[] = hop.links
        .filter((l) => l.end === undefined || l.end <= phrase.index || (l.start ?? 0) >= end)
        .map((l) => (l.start !== undefined && l.start >= end ? { ...l, start: l.start + shift, end: l.end! + shift } : l));
      links.push({ nodeId: item.nodeId, kind: item.kind, name: item.name, mention: item.name, start: phrase.index, end: phrase.index + item.name.length });
      return readQuestion(text, { links });
    });
    return { readings, keep: null, note: `read once for each of hop ${prior!.hop}'s ${items.length} ${kindPlural(kind)} in place of '${phrase[0]}'` };
  }
  return { readings: [base], keep: null, note: null };
}
