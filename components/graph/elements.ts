import type { CyEdgeElement, CyElement, CyNodeElement, GraphModel } from './model';

export interface ToElementsOptions {
  /** Labels longer than this are cut with an ellipsis (the full text stays in `title`). Default 28. */
  maxLabelLength?: number;
  /** Show every edge label when the graph has at most this many edges (and no node fans out wider than `FAN_LABEL_LIMIT`). Default 12. */
  alwaysLabelEdgesUpTo?: number;
}

/** Past this many edges at one node their labels pile up around it, so edges are labelled on hover only. */
export const FAN_LABEL_LIMIT = 6;

export function truncateLabel(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (max < 2 || clean.length <= max) return clean;
  return `${clean.slice(0, max - 1).trimEnd()}…`;
}

/**
 * Flattens a `GraphModel` into Cytoscape element JSON. Pure.
 *
 * - nodes first, then edges (Cytoscape needs endpoints before edges);
 * - duplicate ids keep the first occurrence;
 * - edges whose endpoints are missing are dropped (Cytoscape would throw);
 * - classes become a space-separated string (duplicates removed);
 * - `directed: false` edges get the `undirected` class (no arrow).
 */
export function toCytoscapeElements(model: GraphModel, options: ToElementsOptions = {}): CyElement[] {
  const maxLabel = options.maxLabelLength ?? 28;
  const labelAllUpTo = options.alwaysLabelEdgesUpTo ?? 12;

  const nodes: CyNodeElement[] = [];
  const nodeIds = new Set<string>();
  for (const node of model.nodes) {
    if (nodeIds.has(node.id)) continue;
    nodeIds.add(node.id);
    const full = node.title ?? node.label;
    nodes.push({
      group: 'nodes',
      data: {
        id: node.id,
        label: truncateLabel(node.label, maxLabel),
        kind: node.kind,
        title: full,
        rank: node.rank ?? 0,
        order: nodes.length,
      },
      classes: joinClasses(node.classes),
    });
  }

  const validEdges = model.edges.filter((e) => nodeIds.has(e.source) && nodeIds.has(e.target));
  const degree = new Map<string, number>();
  for (const e of validEdges) for (const end of [e.source, e.target]) degree.set(end, (degree.get(end) ?? 0) + 1);
  const labelAll = validEdges.length <= labelAllUpTo && Math.max(0, ...degree.values()) <= FAN_LABEL_LIMIT;
  const edges: CyEdgeElement[] = [];
  const edgeIds = new Set<string>();
  for (const edge of validEdges) {
    if (edgeIds.has(edge.id) || nodeIds.has(edge.id)) continue;
    edgeIds.add(edge.id);
    const extra: string[] = [];
    if (edge.directed === false) extra.push('undirected');
    if (labelAll && edge.label) extra.push('labelled');
    edges.push({
      group: 'edges',
      data: {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        label: edge.label ?? '',
        channel: edge.channel ?? '',
        ...(edge.title ? { title: edge.title } : {}),
      },
      classes: joinClasses([...(edge.classes ?? []), ...extra]),
    });
  }

  return [...nodes, ...edges];
}

function joinClasses(classes: readonly string[] | undefined): string {
  if (!classes || classes.length === 0) return '';
  return [...new Set(classes.filter(Boolean))].join(' ');
}

/** Kinds present in a model, in first-seen order (for the legend). */
export function kindsInModel(model: GraphModel): string[] {
  return [...new Set(model.nodes.map((n) => n.kind))];
}
