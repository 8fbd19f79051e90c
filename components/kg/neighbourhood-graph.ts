import { NODE_CLASSES, VIEW_CLASSES, type GraphEdge, type GraphModel, type GraphNode, type NodeClass } from '@/components/graph/model';

/** The slice of the KG contract this conversion reads (structural, so tests need no DB). */
export interface FocusNode {
  id: string;
  kind: string;
  name: string;
}

export interface NeighbourItem {
  edge: { id: string | number; sourceId: string; metaedge: string; targetId: string };
  neighbor: { id: string; kind: string; name: string };
  direction: 'out' | 'in';
}

export interface NeighbourhoodGraphOptions {
  /** metaedge abbreviation → description ("Disease – associates – Gene"), for edge labels. */
  metaedgeDescriptions?: ReadonlyMap<string, string> | Record<string, string>;
  /** A neighbour to emphasise (hovered in the side list). */
  highlightId?: string | null;
  /** More neighbours than this go on two rings. Default 24. */
  singleRingMax?: number;
}

/** "Disease – associates – Gene" → "associates"; "Gene > regulates > Gene" → "regulates"; else the abbreviation. */
export function metaedgeVerb(abbr: string, description?: string | null): string {
  if (description) {
    const parts = description.split(/\s+[–\-—>]\s+/);
    if (parts.length === 3 && parts[1]) return parts[1].trim();
  }
  return abbr;
}

function lookup(map: NeighbourhoodGraphOptions['metaedgeDescriptions'], key: string): string | undefined {
  if (!map) return undefined;
  return map instanceof Map ? map.get(key) : (map as Record<string, string>)[key];
}

/** Adds a neighbour's edge unless an edge with its id is already drawn. */
function addEdgeOnce(edges: GraphEdge[], edgeIds: Set<string>, item: NeighbourItem, options: NeighbourhoodGraphOptions) {
  const id = `edge:${item.edge.id}`;
  if (edgeIds.has(id)) return;
  edgeIds.add(id);
  edges.push({
    id,
    source: item.edge.sourceId,
    target: item.edge.targetId,
    label: metaedgeVerb(item.edge.metaedge, lookup(options.metaedgeDescriptions, item.edge.metaedge)),
    channel: 'kg',
  });
}

/** Neighbours in display order: by kind, then name, then id. */
export function sortNeighbours<T extends NeighbourItem>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) =>
      a.neighbor.kind.localeCompare(b.neighbor.kind) ||
      a.neighbor.name.localeCompare(b.neighbor.name, undefined, { sensitivity: 'base' }) ||
      a.neighbor.id.localeCompare(b.neighbor.id),
  );
}

/**
 * An entity's neighbourhood as a generic `GraphModel`. Pure.
 *
 * The focus node has class `focus` and rank 2 (centre of the concentric layout);
 * neighbours are sorted by kind so colours cluster, deduplicated (a node linked by
 * several metaedges appears once, with one edge per metaedge), and put on one
 * ring (rank 1) or, past `singleRingMax`, alternately on two (ranks 1 and 0).
 * Edges keep the KG's orientation and are labelled with the metaedge verb.
 */
export function neighbourhoodToGraph(focus: FocusNode, items: readonly NeighbourItem[], options: NeighbourhoodGraphOptions = {}): GraphModel {
  const singleRingMax = options.singleRingMax ?? 24;
  const sorted = sortNeighbours(items);

  const neighbourNodes: GraphNode[] = [];
  const seen = new Set<string>([focus.id]);
  for (const item of sorted) {
    if (seen.has(item.neighbor.id)) continue;
    seen.add(item.neighbor.id);
    neighbourNodes.push({
      id: item.neighbor.id,
      label: item.neighbor.name,
      title: item.neighbor.name,
      kind: item.neighbor.kind,
    });
  }

  const twoRings = neighbourNodes.length > singleRingMax;
  const ranked = neighbourNodes.map((node, i): GraphNode => {
    const classes: NodeClass[] = node.id === options.highlightId ? [NODE_CLASSES.highlighted] : [];
    return { ...node, rank: twoRings && i % 2 === 1 ? 0 : 1, classes };
  });

  const edges: GraphEdge[] = [];
  const edgeIds = new Set<string>();
  for (const item of sorted) addEdgeOnce(edges, edgeIds, item, options);

  const focusNode: GraphNode = {
    id: focus.id,
    label: focus.name,
    title: focus.name,
    kind: focus.kind,
    rank: 2,
    classes: [NODE_CLASSES.focus],
  };
  return { nodes: [focusNode, ...ranked], edges };
}

/** A node of the graph expanded in place: its own neighbours, added around it. */
export interface Expansion {
  id: string;
  items: readonly NeighbourItem[];
}

export interface ExpandedNeighbourhood {
  model: GraphModel;
  /** Each node an expansion added → the node it was expanded from. */
  parentOf: Map<string, string>;
  /** How many nodes and edges the expansions added. */
  added: { nodes: number; edges: number };
}

/**
 * The focus's neighbourhood plus the neighbours of every expanded node, in
 * expansion order, like Neo4j Browser's expand: a node already drawn is not
 * drawn again (only the new edges to it are added), and each new node records
 * the node it was expanded from, so the layout can put it beside that node. Pure.
 */
export function expandNeighbourhood(
  focus: FocusNode,
  items: readonly NeighbourItem[],
  expansions: readonly Expansion[],
  options: NeighbourhoodGraphOptions & { selectedId?: string | null } = {},
): ExpandedNeighbourhood {
  const base = neighbourhoodToGraph(focus, items, options);
  const nodes = [...base.nodes];
  const edges = [...base.edges];
  const nodeIds = new Set(nodes.map((n) => n.id));
  const edgeIds = new Set(edges.map((e) => e.id));
  const parentOf = new Map<string, string>();
  const expanded = new Set<string>();
  for (const expansion of expansions) {
    if (!nodeIds.has(expansion.id)) continue; // its parent was collapsed or filtered away
    expanded.add(expansion.id);
    for (const item of sortNeighbours(expansion.items)) {
      if (!nodeIds.has(item.neighbor.id)) {
        nodeIds.add(item.neighbor.id);
        parentOf.set(item.neighbor.id, expansion.id);
        nodes.push({ id: item.neighbor.id, label: item.neighbor.name, title: item.neighbor.name, kind: item.neighbor.kind, rank: 0 });
      }
      addEdgeOnce(edges, edgeIds, item, options);
    }
  }
  const marked = nodes.map((node): GraphNode => {
    const classes = [...(node.classes ?? [])];
    if (expanded.has(node.id)) classes.push(VIEW_CLASSES.expanded);
    if (node.id === options.selectedId && !classes.includes(NODE_CLASSES.highlighted)) classes.push(NODE_CLASSES.highlighted);
    return classes.length === (node.classes ?? []).length ? node : { ...node, classes };
  });
  return { model: { nodes: marked, edges }, parentOf, added: { nodes: nodes.length - base.nodes.length, edges: edges.length - base.edges.length } };
}
