import { NODE_CLASSES, type GraphEdge, type GraphModel, type GraphNode, type NodeClass } from '@/components/graph/model';

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
export function neighbourhoodToGraph(
  focus: FocusNode,
  items: readonly NeighbourItem[],
  options: NeighbourhoodGraphOptions = {},
): GraphModel {
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
  for (const item of sorted) {
    const id = `edge:${item.edge.id}`;
    if (edgeIds.has(id)) continue;
    edgeIds.add(id);
    edges.push({
      id,
      source: item.edge.sourceId,
      target: item.edge.targetId,
      label: metaedgeVerb(item.edge.metaedge, lookup(options.metaedgeDescriptions, item.edge.metaedge)),
      channel: 'kg',
    });
  }

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
