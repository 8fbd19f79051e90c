import { kgTriplesOf } from '@/lib/trace/evidence-data';
import type { EvidenceRecord } from '@/lib/trace/types';
import type { EvidenceItem } from '../templates';

export interface RetrievedItem extends EvidenceItem {
  channel: EvidenceRecord['channel'];
  kind: EvidenceRecord['kind'];
}

/**
 * Each record's item, made once: a run's retrievals return the records the trace already holds for facts read before
 * (the same neighbourhoods in every round and lane), and each ranking, injection and option check reads their triples.
 */
const items = new WeakMap<EvidenceRecord, RetrievedItem>();

/** An evidence record as roles see it: its text, and the structured triple(s) of a KG record. */
export function toItem(r: EvidenceRecord): RetrievedItem {
  let item = items.get(r);
  if (!item) items.set(r, (item = { id: r.id, text: r.text, triples: kgTriplesOf(r), channel: r.channel, kind: r.kind }));
  return item;
}
