import { loadMetagraph } from '../loaded-metagraph';
import { conceptsOf, type KindConcept } from '../relations';
import { findRelationCues } from '@/lib/reading/relation-cues';

/** Where an active relation phrase's object starts, and the kinds its metaedges take there ("used for …": a disease). */
export interface ObjectSlot {
  /** Offset of the first character after the phrase (and an article after it). */
  at: number;
  concepts: ReadonlySet<KindConcept>;
}

/**
 * The object slots of the text's relation phrases (the sense registry's, over the loaded metagraph): after an active
 * phrase ("used for", "indicated in", "relieves") comes the end of its metaedges that is not their agent. The kinds a
 * slot takes say how to read an ambiguous short name written there ("used for MS": the disease, whose initials MS are).
 */
export async function objectSlots(text: string): Promise<ObjectSlot[]> {
  const graph = await loadMetagraph();
  return findRelationCues(text)
    .filter((cue) => cue.voice === 'active')
    .map((cue) => {
      const concepts = new Set<KindConcept>();
      for (const abbr of cue.metaedges) {
        const m = graph.byAbbr.get(abbr);
        if (m) for (const c of conceptsOf(m.agentEnd === 'source' ? m.target : m.source)) concepts.add(c);
      }
      const article = /^\s+(?:the|a|an)(?=\s)/i.exec(text.slice(cue.end));
      return { at: cue.end + (article?.[0].length ?? 0), concepts };
    });
}

/** The kinds the slot right before offset `start` takes (only blanks between), or null where no relation phrase opens one. */
export function slotAt(slots: readonly ObjectSlot[], text: string, start: number): ReadonlySet<KindConcept> | null {
  return slots.find((s) => s.at <= start && /^\s*$/.test(text.slice(s.at, start)))?.concepts ?? null;
}
