import type { EvidenceTriple } from '@/lib/llm/offline/evidence';

/** A KG node as the offline-engine unit tests write it: id, name, kind. */
export type Node = [id: string, name: string, kind: string];

/** An evidence triple between two such nodes. */
export function triple(id: string, source: Node, metaedge: string, target: Node): EvidenceTriple {
  return { id, sourceId: source[0], sourceName: source[1], sourceKind: source[2], metaedge, targetId: target[0], targetName: target[1], targetKind: target[2] };
}
