/**
 * The KG evidence a role was given, indexed for walking: the offline engine
 * answers from this and only this, never from the KG itself, so with the kg
 * switch off (no triples) it has nothing to walk and abstains.
 */

import { sameKind, type NodeKind } from './metaedges';
import type { Hop, HopEdge } from './types';

export interface EvidenceTriple {
  /** Evidence record id (or edge id): what an answer cites. */
  id: string;
  sourceId: string;
  sourceName: string;
  sourceKind: NodeKind;
  metaedge: string;
  targetId: string;
  targetName: string;
  targetKind: NodeKind;
}

/** A KG path given as one piece of evidence; its edges are cited by the path's id. */
export interface EvidencePath {
  id: string;
  triples: Omit<EvidenceTriple, 'id'>[];
}

/** A retrieved passage: it never walks the graph, but can corroborate an option the KG reaches. */
export interface EvidencePassage {
  id: string;
  text: string;
}

/** A complete answer set read from the KG (an aid): every member, the anchors it was read from and the kind asked. */
export interface EvidenceSet {
  id: string;
  count: number;
  members: { id: string; name: string; kind: string }[];
  anchors: string[];
  kind: string | null;
}

/** A pair whose own edges of `metaedges` (null: any) were read whole and found absent: what a "no" may rest on. */
export interface EvidenceCheck {
  id: string;
  fromId: string;
  toId: string;
  metaedges: string[] | null;
}

export interface EvidenceBundle {
  triples: EvidenceTriple[];
  paths?: EvidencePath[];
  passages?: EvidencePassage[];
  sets?: EvidenceSet[];
  checks?: EvidenceCheck[];
}

interface IndexedEdge {
  key: string;
  sourceId: string;
  metaedge: string;
  targetId: string;
  /** Every evidence id that states this edge (the same edge can arrive as a triple and inside paths). */
  ids: Set<string>;
}

/** How a node was reached: the evidence ids and distinct edges along the way. */
export interface Reach {
  support: Set<string>;
  edges: Set<string>;
}

export class EvidenceGraph {
  private readonly nodes = new Map<string, { name: string; kind: NodeKind }>();
  private readonly edges = new Map<string, IndexedEdge>();
  private readonly incident = new Map<string, IndexedEdge[]>();
  private readonly checks: EvidenceCheck[];

  constructor(bundle: EvidenceBundle) {
    for (const t of bundle.triples) this.add(t, t.id);
    for (const path of bundle.paths ?? []) for (const t of path.triples) this.add(t, path.id);
    this.checks = bundle.checks ?? [];
  }

  private add(t: Omit<EvidenceTriple, 'id'>, id: string): void {
    this.nodes.set(t.sourceId, { name: t.sourceName, kind: t.sourceKind });
    this.nodes.set(t.targetId, { name: t.targetName, kind: t.targetKind });
    const key = `${t.sourceId}|${t.metaedge}|${t.targetId}`;
    const existing = this.edges.get(key);
    if (existing) {
      existing.ids.add(id);
      return;
    }
    const edge: IndexedEdge = { key, sourceId: t.sourceId, metaedge: t.metaedge, targetId: t.targetId, ids: new Set([id]) };
    this.edges.set(key, edge);
    for (const end of new Set([t.sourceId, t.targetId])) this.incident.set(end, [...(this.incident.get(end) ?? []), edge]);
  }

  /** Distinct edges in the evidence. */
  get size(): number {
    return this.edges.size;
  }

  node(id: string): { name: string; kind: NodeKind } | undefined {
    return this.nodes.get(id);
  }

  /** Edges at `nodeId` of the given metaedges, with `nodeId` at the edge's required end; and the node at the other end. */
  private follow(nodeId: string, edges: HopEdge[]): { edge: IndexedEdge; other: string }[] {
    const out: { edge: IndexedEdge; other: string }[] = [];
    for (const edge of this.incident.get(nodeId) ?? []) {
      for (const want of edges) {
        if (edge.metaedge !== want.metaedge) continue;
        if (want.fromEnd !== 'target' && edge.sourceId === nodeId) out.push({ edge, other: edge.targetId });
        else if (want.fromEnd !== 'source' && edge.targetId === nodeId) out.push({ edge, other: edge.sourceId });
      }
    }
    return out;
  }

  /** One hop from every frontier node, through `edges`, to nodes of the hop's target kind. */
  step(frontier: Map<string, Reach>, hop: Hop, edges: HopEdge[]): Map<string, Reach> {
    const next = new Map<string, Reach>();
    for (const [nodeId, reach] of frontier) {
      for (const { edge, other } of this.follow(nodeId, edges)) {
        const kind = this.nodes.get(other)?.kind;
        if (!kind || !sameKind(kind, hop.to)) continue;
        const into = next.get(other) ?? { support: new Set<string>(), edges: new Set<string>() };
        for (const id of reach.support) into.support.add(id);
        for (const key of reach.edges) into.edges.add(key);
        for (const id of edge.ids) into.support.add(id);
        into.edges.add(edge.key);
        next.set(other, into);
      }
    }
    return next;
  }

  /** Evidence ids of the edges joining `from` to `to` as the edges require. */
  connecting(from: string, to: string, edges: HopEdge[]): string[] {
    return this.follow(from, edges)
      .filter((f) => f.other === to)
      .flatMap((f) => [...f.edge.ids]);
  }

  /** The edges joining two nodes, any metaedge, either direction: their evidence ids and metaedges. */
  between(a: string, b: string): { ids: string[]; metaedge: string }[] {
    return (this.incident.get(a) ?? [])
      .filter((e) => (e.sourceId === a && e.targetId === b) || (e.sourceId === b && e.targetId === a))
      .map((e) => ({ ids: [...e.ids], metaedge: e.metaedge }));
  }

  /**
   * Ids of the checks that read the pair's own edges whole and found none of
   * these metaedges (either direction): each metaedge must be one a check covered.
   */
  checkedAbsent(a: string, b: string, edges: HopEdge[]): string[] {
    const pair = this.checks.filter((c) => (c.fromId === a && c.toId === b) || (c.fromId === b && c.toId === a));
    const covers = (metaedge: string) => pair.some((c) => c.metaedges === null || c.metaedges.includes(metaedge));
    return edges.length && edges.every((e) => covers(e.metaedge))
      ? pair.filter((c) => c.metaedges === null || edges.some((e) => c.metaedges!.includes(e.metaedge))).map((c) => c.id)
      : [];
  }

  /** Whether the evidence holds any edge of these metaedges at this node (its neighbourhood was retrieved). */
  touches(nodeId: string, edges: HopEdge[]): boolean {
    return this.follow(nodeId, edges).length > 0;
  }
}

/** The start of a walk: the anchor itself, reached by no evidence yet. */
export function startAt(nodeId: string): Map<string, Reach> {
  return new Map([[nodeId, { support: new Set<string>(), edges: new Set<string>() }]]);
}
