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
