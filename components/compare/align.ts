import { EDGE_CLASSES, VIEW_CLASSES, type EdgeClass, type GraphEdge, type GraphModel, type GraphNode } from '@/components/graph/model';
import { buildStepTree, type StepNode } from '@/components/trace/tree';
import type { StepSummary } from '@/lib/runs/view';

/**
 * Pure shaping for the comparison page: the two traces aligned stage by stage,
 * and the two evidence graphs merged with every element marked as only in A,
 * only in B, or in both.
 */

export interface AlignedRow {
  key: string;
  depth: number;
  kind: string;
  /** The step's label; when the two runs labelled the same stage differently, both ("Hop answer (KG-STRICT) ↔ Hop answer (HYBRID)"). */
  label: string;
  /** 1-based occurrence of this kind among its siblings: the iteration, round, hop or lane. */
  iteration: number;
  a: StepSummary | null;
  b: StepSummary | null;
  /** Both ran the stage and it came out differently (status, headline or label). */
  differs: boolean;
}

/**
 * Stages match by kind and iteration, not by order or label: a step's place
 * is its kind and its occurrence among same-kind siblings ("the 2nd
 * `xr2.iteration`", "the 3rd `eigen1.proposer`"), under a matching parent.
 * Labels carry run-specific text ("Hop answer (HYBRID)", "Review h3") and do
 * not take part. Each level is merged along the longest common subsequence of
 * those places, so a stage only one run reached appears where it happened, and
 * the children of a matched pair are aligned the same way, recursively.
 */
export function alignSteps(a: readonly StepSummary[], b: readonly StepSummary[]): AlignedRow[] {
  const rows: AlignedRow[] = [];
  alignLevel(buildStepTree(a).roots, buildStepTree(b).roots, 0, '', rows);
  return rows;
}

interface Place {
  node: StepNode;
  kind: string;
  iteration: number;
  key: string;
}

/** Each sibling's kind and its 1-based occurrence among siblings of that kind. */
function places(nodes: readonly StepNode[], prefix: string): Place[] {
  const seen = new Map<string, number>();
  return nodes.map((node) => {
    const iteration = (seen.get(node.step.kind) ?? 0) + 1;
    seen.set(node.step.kind, iteration);
    return { node, kind: node.step.kind, iteration, key: `${prefix}/${node.step.kind}#${iteration}` };
  });
}

function alignLevel(nodesA: readonly StepNode[], nodesB: readonly StepNode[], depth: number, prefix: string, rows: AlignedRow[]): void {
  const seqA = places(nodesA, prefix);
  const seqB = places(nodesB, prefix);
  const n = seqA.length;
  const m = seqB.length;
  // lcs[i][j] = LCS length of seqA[i:] and seqB[j:]
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = seqA[i].key === seqB[j].key ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && seqA[i].key === seqB[j].key) {
      const x = seqA[i++];
      const y = seqB[j++];
      rows.push(pairRow(x, y.node, depth));
      alignLevel(x.node.children, y.node.children, depth + 1, x.key, rows);
    } else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      oneSided(seqA[i++], 'a', depth, rows);
    } else {
      oneSided(seqB[j++], 'b', depth, rows);
    }
  }
}

function pairRow(x: Place, other: StepNode, depth: number): AlignedRow {
  const sa = x.node.step;
  const sb = other.step;
  const differs = sa.status !== sb.status || (sa.headline ?? '') !== (sb.headline ?? '') || sa.label !== sb.label;
  const label = sa.label === sb.label ? sa.label : `${sa.label} ↔ ${sb.label}`;
  return { key: x.key, depth, kind: x.kind, label, iteration: x.iteration, a: sa, b: sb, differs };
}

/** A stage only one run reached, with its whole subtree on that side. */
function oneSided(place: Place, side: 'a' | 'b', depth: number, rows: AlignedRow[]): void {
  const step = place.node.step;
  rows.push({
    key: `${side}:${place.key}`,
    depth,
    kind: place.kind,
    label: step.label,
    iteration: place.iteration,
    a: side === 'a' ? step : null,
    b: side === 'b' ? step : null,
    differs: false,
  });
  for (const child of places(place.node.children, place.key)) oneSided(child, side, depth + 1, rows);
}

export type Presence = 'a' | 'b' | 'both';

export interface MergedGraph {
  model: GraphModel;
  presence: Map<string, Presence>;
  counts: { onlyA: number; onlyB: number; both: number };
}

const PRESENCE_CLASS: Record<Presence, EdgeClass> = { a: EDGE_CLASSES.onlyA, b: EDGE_CLASSES.onlyB, both: EDGE_CLASSES.both };

export function mergeGraphs(a: GraphModel, b: GraphModel): MergedGraph {
  const presence = new Map<string, Presence>();
  const mark = (id: string, side: 'a' | 'b') => {
    const was = presence.get(id);
    presence.set(id, was && was !== side ? 'both' : side);
  };
  const nodes = new Map<string, GraphNode>();
  for (const [side, model] of [
    ['a', a],
    ['b', b],
  ] as const) {
    for (const node of model.nodes) {
      mark(node.id, side);
      const existing = nodes.get(node.id);
      // Seeds and answers of either run keep their rings.
      nodes.set(node.id, existing ? { ...existing, classes: [...new Set([...(existing.classes ?? []), ...(node.classes ?? [])])] } : node);
    }
  }
  const edges = new Map<string, GraphEdge>();
  for (const [side, model] of [
    ['a', a],
    ['b', b],
  ] as const) {
    for (const edge of model.edges) {
      mark(edge.id, side);
      if (!edges.has(edge.id)) edges.set(edge.id, edge);
    }
  }
  const counts = { onlyA: 0, onlyB: 0, both: 0 };
  const mergedEdges = [...edges.values()].map((edge): GraphEdge => {
    const p = presence.get(edge.id)!;
    counts[p === 'a' ? 'onlyA' : p === 'b' ? 'onlyB' : 'both'] += 1;
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      label: edge.label,
      title: edge.title,
      channel: edge.channel,
      directed: edge.directed,
      classes: [PRESENCE_CLASS[p]],
    };
  });
  const mergedNodes = [...nodes.values()].map((node): GraphNode => {
    const p = presence.get(node.id)!;
    const extra = p === 'a' ? [VIEW_CLASSES.onlyA] : p === 'b' ? [VIEW_CLASSES.onlyB] : [];
    return { ...node, classes: [...(node.classes ?? []), ...extra] as GraphNode['classes'] };
  });
  return { model: { nodes: mergedNodes, edges: mergedEdges }, presence, counts };
}
