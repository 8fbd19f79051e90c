import type { EntityLink } from '@/lib/kg/types';
import type { LinkedEntity } from './types';

/** The entity channel's links as the rule kit reads them: node, mention, offsets, score and the mention's other readings. */
export function asLinked(links: EntityLink[]): LinkedEntity[] {
  return links.map((l) => ({
    nodeId: l.nodeId,
    kind: l.kind,
    name: l.name,
    mention: l.mention,
    start: l.start,
    end: l.end,
    score: l.score,
    ...(l.readings?.length ? { readings: l.readings } : {}),
  }));
}

/**
 * Each link followed by its mention's other readings as links of their own on
 * the same span ("headache" the symptom, then the side effect): a reading may
 * choose any of them, so whatever maps a reading's nodes back to links must
 * know them all.
 */
export function everyReading<T extends LinkedEntity>(links: T[]): (Omit<T, 'readings'> & LinkedEntity)[] {
  return links.flatMap(({ readings, ...link }) => [link, ...(readings ?? []).map((r) => ({ ...link, ...r, mention: link.mention }))]);
}
