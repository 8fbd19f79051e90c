import { answerSetOf, kgTriplesOf, pairCheckOf } from '@/lib/trace/evidence-data';
import type { EvidenceBundle, EvidenceCheck } from '@/lib/llm/offline/evidence';
import type { EvidenceRecord, TripleData } from '@/lib/trace/types';

/** One evidence record as a role sees it: its id and text, and for KG records the structured triple(s) behind the text (an answer set's: the edges joining its members to its anchors). */
export interface EvidenceLine {
  id: string;
  /** The stable reference behind it (`edge:123`, `passage:…`): the same fact retrieved twice has two ids and one ref. */
  ref: string;
  channel: EvidenceRecord['channel'];
  kind: EvidenceRecord['kind'];
  text: string;
  triples: TripleData[];
  /** An answer set's whole membership, and the anchors and kind it was read for. */
  set?: EvidenceSet;
  /** A pair read whole and found without an edge of these metaedges. */
  check?: Omit<EvidenceCheck, 'id'>;
}

type EvidenceSet = Omit<NonNullable<EvidenceBundle['sets']>[number], 'id'>;

export function toLine(r: EvidenceRecord): EvidenceLine {
  if (r.kind === 'check') {
    const { from, to, metaedges } = pairCheckOf(r);
    return { id: r.id, ref: r.ref, channel: r.channel, kind: r.kind, text: r.text, triples: [], check: { fromId: from.id, toId: to.id, metaedges } };
  }
  if (r.kind !== 'set') return { id: r.id, ref: r.ref, channel: r.channel, kind: r.kind, text: r.text, triples: kgTriplesOf(r) };
  // An answer set's triples are the edges joining its members to its anchors (along their chains).
  const data = answerSetOf(r);
  const set = { count: data.count, members: data.members, anchors: (data.constraints ?? []).map((c) => c.anchor), kind: data.kind ?? null };
  return { id: r.id, ref: r.ref, channel: r.channel, kind: r.kind, text: r.text, triples: data.triples ?? [], set };
}

/** The lines as the offline rule kit reads them: KG triples and paths to walk (each cited by the id of the record that showed it; an answer set's edges by the set, where no line of their own shows them), passages to corroborate. */
export function bundleOf(lines: EvidenceLine[]): EvidenceBundle {
  const bundle: Required<EvidenceBundle> = { triples: [], paths: [], passages: [], sets: [], checks: [] };
  for (const line of lines) {
    if (line.kind === 'passage') bundle.passages.push({ id: line.id, text: line.text });
    else if (line.check) bundle.checks.push({ id: line.id, ...line.check });
    else if (line.kind === 'set') continue;
    else if (line.triples.length === 1) bundle.triples.push({ ...line.triples[0], id: line.id });
    else if (line.triples.length > 1) bundle.paths.push({ id: line.id, triples: line.triples });
  }
  // An answer set's edges are cited by the set where no line of their own states them.
  const stated = new Set([...bundle.triples, ...bundle.paths.flatMap((p) => p.triples)].map(edgeKey));
  for (const set of lines.filter((l) => l.kind === 'set')) {
    if (set.set) bundle.sets.push({ id: set.id, ...set.set });
    const unstated = set.triples.filter((t) => !stated.has(edgeKey(t)));
    for (const t of unstated) stated.add(edgeKey(t));
    if (unstated.length) bundle.paths.push({ id: set.id, triples: unstated });
  }
  return bundle;
}

const edgeKey = (t: Pick<TripleData, 'sourceId' | 'metaedge' | 'targetId'>) => `${t.sourceId} ${t.metaedge} ${t.targetId}`;

/** Evidence shown as "[id] text", one per line, so a model can cite it and an answer links back to the record. */
export function linesBlock(lines: EvidenceLine[]): string {
  return lines.length ? lines.map((l) => `[${l.id}] ${l.text}`).join('\n') : '(none)';
}
