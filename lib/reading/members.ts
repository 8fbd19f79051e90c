/**
 * Collections and their members, from the registry: a sense whose agent
 * includes the other end ("include": a pharmacologic class includes compounds)
 * makes its agent's kind a collection. A question may name a collection where
 * it means the members ("Which dihydropyridines treat hypertension?", "what do
 * xanthine oxidase inhibitors treat"); the reader then reads the members.
 */

import { loadedMetagraph } from '@/lib/kg/loaded-metagraph';
import { sameKind, type NodeKind } from '@/lib/llm/offline/metaedges';
import type { Hop } from '@/lib/llm/offline/types';
import { senses } from './senses';

/** The hops from a collection kind to its members' kind (none for a kind that is no collection). */
export function memberHops(kind: NodeKind): Hop[] {
  const collecting = new Set(
    senses()
      .filter((s) => s.collects)
      .map((s) => s.id),
  );
  return loadedMetagraph()
    .metaedges.filter((m) => m.sense && collecting.has(m.sense) && !sameKind(m.source, m.target))
    .flatMap((m): Hop[] => {
      // The collection is the sense's agent, the subject of its active clause ("include {x}").
      const [collection, member] = m.agentEnd === 'source' ? [m.source, m.target] : [m.target, m.source];
      const fromEnd = m.agentEnd;
      return sameKind(collection, kind) ? [{ from: kind, to: member, edges: [{ metaedge: m.abbr, fromEnd }], cue: null, explicit: false }] : [];
    });
}
