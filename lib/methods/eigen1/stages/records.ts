import { kgTriplesOf } from '@/lib/trace/evidence-data';
import type { EvidenceRecord } from '@/lib/trace/types';
import type { EvidenceItem } from '../templates';

export interface RetrievedItem extends EvidenceItem {
  channel: EvidenceRecord['channel'];
  kind: EvidenceRecord['kind'];
}

/** An evidence record as roles see it: its text, and the structured triple(s) of a KG record. */
export function toItem(r: EvidenceRecord): RetrievedItem {
  return { id: r.id, text: r.text, triples: kgTriplesOf(r), channel: r.channel, kind: r.kind };
}
