import type { EvidenceRecord, TripleData } from '@/lib/trace/types';
import type { EvidenceItem } from '../templates';

export interface RetrievedItem extends EvidenceItem {
  channel: EvidenceRecord['channel'];
  kind: EvidenceRecord['kind'];
}

/** An evidence record as roles see it: its text, and the structured triple(s) of a KG record. */
export function toItem(r: EvidenceRecord): RetrievedItem {
  const triples = r.kind === 'triple' ? [r.data as TripleData] : r.kind === 'path' ? ((r.data as { hops?: TripleData[] } | undefined)?.hops ?? []) : [];
  return { id: r.id, text: r.text, triples, channel: r.channel, kind: r.kind };
}

