/** The shapes the KG query library answers in; plain JSON so they can go into traces and routes as they are. */

/** A node, "Kind::source-id" (e.g. "Gene::3439", "Disease::DOID:2377"). */
export interface KgNode {
  id: string;
  kind: string;
  name: string;
}

/** An edge as stored: `sourceId –metaedge→ targetId`; `id` is the stable provenance reference. */
export interface KgEdge {
  id: number;
  sourceId: string;
  metaedge: string;
  targetId: string;
}

/** Which side of a stored edge a node is on: 'out' = it is the edge's source, 'in' = its target. */
export type EdgeDirection = 'out' | 'in';
export type DirectionFilter = EdgeDirection | 'both';

/** One edge seen from an anchor node. */
export interface NeighborEdge {
  edge: KgEdge;
  neighbor: KgNode;
  direction: EdgeDirection;
}

/** An edge with both end nodes, as samplers and evidence builders need it. */
export interface KgTriple {
  edge: KgEdge;
  source: KgNode;
  target: KgNode;
}

export type LinkMethod = 'exact' | 'alias' | 'fuzzy';

/**
 * How a span matched its node, finer than LinkMethod (see docs/linking.md):
 * 'exact' a node name; 'alias' a stored alias (gene symbol, synonym, other
 * designation); 'gene-full-name' a gene's full name from NCBI gene_info;
 * 'fuzzy' / 'fuzzy-gene-full-name' the same within a small edit distance;
 * 'reordered' a name's words in another order ("blurred vision" → "Vision blurred");
 * 'gene-derived' a name built from a gene symbol ("G6PD deficiency" →
 * "Glucose-6-phosphate dehydrogenase deficiency"); 'abbreviation' a
 * disease written by its initials ("MS", "PCOS").
 */
export type LinkMatch =
  | 'exact'
  | 'alias'
  | 'gene-full-name'
  | 'fuzzy'
  | 'fuzzy-gene-full-name'
  | 'reordered'
  | 'gene-derived'
  | 'abbreviation'
  | 'lay-term'
  | 'narrower'
  | 'broader'
  | 'head-noun'
  | 'spelling-variant'
  | 'word-synonym'
  | 'gloss';

/** Another node the same span matched: a weaker reading kept beside the link. */
export interface LinkAlternative {
  nodeId: string;
  kind: string;
  name: string;
  matched: string;
  match: LinkMatch;
  confidence: number;
}

/** A mention linked to a node. */
export interface EntityLink {
  nodeId: string;
  kind: string;
  name: string;
  /** The text that was linked, as written. */
  mention: string;
  /** The node name or alias it matched. */
  matched: string;
  method: LinkMethod;
  /** 1 for an exact name, 0.9 for an alias, the trigram similarity for a fuzzy match. */
  score: number;
  /** How the span matched (see LinkMatch). */
  match?: LinkMatch;
  /** 0–1: how sure the linker is of this node for this span (1 an exact name; a fuzzy match loses by its edits). */
  confidence?: number;
  /** Edits (insert, delete, substitute, swap) between the span and `matched`, for a fuzzy match. */
  edits?: number;
  /** A condition read by its head: the modifiers written right before the span that no name takes ("patchy" hair loss); confidence lowered. */
  modifiers?: string;
  /** Character offsets of the mention in the linked text (linkEntities only). */
  start?: number;
  end?: number;
  /** Nodes of other kinds the mention names exactly as well ("nausea": Symptom and Side Effect); linkEntities only. */
  readings?: LinkReading[];
  /** The other nodes this span matched, best first (linkEntities only; readings are the equally good ones). */
  alternatives?: LinkAlternative[];
}

/** Another node a mention may mean. */
export interface LinkReading {
  nodeId: string;
  kind: string;
  name: string;
}

/** A candidate the linker turned down, and why (for the trace). */
export interface LinkRejection {
  mention: string;
  start: number;
  end: number;
  nodeId: string;
  name: string;
  kind: string;
  matched: string;
  method: LinkMethod;
  match?: LinkMatch;
  reason: string;
}

/** Links over a text with the candidates that lost: what the entity channel's step records. */
export interface LinkReport {
  /** In text order. */
  links: EntityLink[];
  rejected: LinkRejection[];
}

/**
 * A walk through the graph: `edges[i]` joins `nodes[i]` and `nodes[i + 1]` (in either
 * stored direction). `metapath` names the hops, see `formatMetapath`.
 */
export interface KgPath {
  nodes: KgNode[];
  edges: KgEdge[];
  metapath: string;
}

/** One hop of a metapath: a metaedge and the direction it is walked in from the hop's start node. */
export interface MetapathHop {
  metaedge: string;
  direction: DirectionFilter;
}
