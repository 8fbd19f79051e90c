import { EDGE_CLASSES, NODE_CLASSES, VIEW_CLASSES, type GraphEdge, type GraphModel, type GraphNode } from '@/components/graph/model';
import type { GraphScope } from './view-state';

/**
 * What the run graph shows first, and how a large view stays readable (pure).
 *
 * - The answer subgraph: the edges behind the evidence the answer cites, their
 *   ends, the seeds (anchors) and the answer's nodes.
 * - Aggregation: past a node budget, nodes that are neither anchors, answers nor
 *   on a selected / hypothesised edge fold into one node per kind (per seed,
 *   for candidates linked to a seed): "+143 more genes", expandable in place.
 */

/** Id prefix of aggregate nodes; a click on one expands it rather than opening provenance. */
export const AGGREGATE_PREFIX = 'group:';

/** Nodes drawn before the rest folds into groups: what fits the canvas with labels at a legible zoom. */
export const NODE_BUDGET = 30;

export interface NodeGroup {
  id: string;
  /** The seed the members hang off ('' when they are linked to no seed). */
  anchor: string;
  kind: string;
  members: string[];
}

export interface FocusedGraph {
  model: GraphModel;
  groups: NodeGroup[];
  /** Nodes folded into groups. */
  folded: number;
}

/** Edge ids of the graph elements behind the answer's cited evidence. */
export function citedEdgeIds(model: GraphModel, evidenceByElement: ReadonlyMap<string, readonly string[]>, citedEvidenceIds: readonly string[]): Set<string> {
  const cited = new Set(citedEvidenceIds);
  return new Set(model.edges.filter((e) => (evidenceByElement.get(e.id) ?? []).some((id) => cited.has(id))).map((e) => e.id));
}

/** The scope a run opens with: its answer's evidence when the answer cites any graph edge, else the whole run. */
export function defaultScope(citedEdges: ReadonlySet<string>): GraphScope {
  return citedEdges.size > 0 ? 'answer' : 'all';
}

const hasClass = (x: { classes?: readonly string[] }, c: string) => !!x.classes?.includes(c);

/** The cited edges, their ends, the seeds and the answer nodes. */
export function answerSubgraph(model: GraphModel, citedEdges: ReadonlySet<string>): GraphModel {
  const edges = model.edges.filter((e) => citedEdges.has(e.id));
  const ends = new Set(edges.flatMap((e) => [e.source, e.target]));
  const nodes = model.nodes.filter((n) => ends.has(n.id) || hasClass(n, NODE_CLASSES.seed) || hasClass(n, NODE_CLASSES.answer));
  return { nodes, edges };
}

/** Nodes that are never folded: anchors, answers, highlighted nodes and the ends of chosen edges. */
export function keptNodeIds(model: GraphModel): Set<string> {
  const keep = new Set(
    model.nodes.filter((n) => hasClass(n, NODE_CLASSES.seed) || hasClass(n, NODE_CLASSES.answer) || hasClass(n, NODE_CLASSES.highlighted)).map((n) => n.id),
  );
  const chosen = [EDGE_CLASSES.selected, EDGE_CLASSES.hypothesisAccepted, EDGE_CLASSES.hypothesisRejected, EDGE_CLASSES.labelled];
  for (const e of model.edges) if (chosen.some((c) => hasClass(e, c))) keep.add(e.source).add(e.target);
  return keep;
}

const plural = (kind: string, n: number) => {
  const word = kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  if (n === 1) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return /(s|x|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;
};

/**
 * Folds the nodes past the budget into groups, one per (kept anchor, kind); a
 * group in `expanded` shows its members. A model within the budget is returned
 * as it is.
 */
export function aggregate(model: GraphModel, options: { budget?: number; expanded?: ReadonlySet<string> } = {}): FocusedGraph {
  const budget = options.budget ?? NODE_BUDGET;
  const expanded = options.expanded ?? new Set<string>();
  if (model.nodes.length <= budget) return { model, groups: [], folded: 0 };

  const keep = keptNodeIds(model);
  const byId = new Map(model.nodes.map((n) => [n.id, n]));
  const neighbours = new Map<string, string[]>();
  for (const e of model.edges) {
    neighbours.set(e.source, [...(neighbours.get(e.source) ?? []), e.target]);
    neighbours.set(e.target, [...(neighbours.get(e.target) ?? []), e.source]);
  }
  const isSeed = (id: string) => hasClass(byId.get(id)!, NODE_CLASSES.seed);

  const groups = new Map<string, NodeGroup>();
  for (const n of model.nodes) {
    if (keep.has(n.id)) continue;
    // Hang a group off the seed it is linked to; candidates reached further out group by kind alone, so groups stay few.
    const anchor = (neighbours.get(n.id) ?? []).find((id) => keep.has(id) && isSeed(id)) ?? '';
    const id = `${AGGREGATE_PREFIX}${anchor}|${n.kind}`;
    const group = groups.get(id) ?? { id, anchor, kind: n.kind, members: [] };
    group.members.push(n.id);
    groups.set(id, group);
  }
  // A group of one is just its node.
  for (const g of groups.values()) if (g.members.length === 1 || expanded.has(g.id)) for (const m of g.members) keep.add(m);
  const folded = [...groups.values()].filter((g) => !g.members.every((m) => keep.has(m)));
  const groupOf = new Map(folded.flatMap((g) => g.members.map((m) => [m, g.id] as const)));

  const nodes: GraphNode[] = model.nodes.filter((n) => keep.has(n.id));
  for (const g of folded) {
    const anchorName = g.anchor ? byId.get(g.anchor)?.label : undefined;
    nodes.push({
      id: g.id,
      label: `+${g.members.length} more ${plural(g.kind, g.members.length)}`,
      kind: g.kind,
      rank: 0,
      classes: [VIEW_CLASSES.aggregate],
      title: `${g.members.length} more ${plural(g.kind, g.members.length)}${anchorName ? ` linked to ${anchorName}` : ''}, not chosen by the method. Click to show them.`,
    });
  }
  const edges: GraphEdge[] = [];
  const groupEdges = new Map<string, GraphEdge & { count: number }>();
  for (const e of model.edges) {
    const s = groupOf.get(e.source);
    const t = groupOf.get(e.target);
    if (!s && !t) {
      edges.push(e);
      continue;
    }
    if (s && t) continue; // between two folded nodes: inside the groups
    const [source, target] = [s ?? e.source, t ?? e.target];
    const id = `${source}>${target}`;
    const existing = groupEdges.get(id);
    if (existing) existing.count += 1;
    else groupEdges.set(id, { id, source, target, count: 1, classes: [EDGE_CLASSES.candidate], channel: e.channel });
  }
  for (const e of groupEdges.values()) {
    const { count, ...edge } = e;
    edges.push({ ...edge, label: `${count} relation${count === 1 ? '' : 's'}`, title: `${count} relation${count === 1 ? '' : 's'} folded into the group` });
  }
  return { model: { nodes, edges }, groups: folded, folded: folded.reduce((sum, g) => sum + g.members.length, 0) };
}
