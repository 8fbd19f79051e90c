import { EDGE_CLASSES, type EdgeClass, type GraphEdge, type GraphModel, type GraphNode } from '@/components/graph/model';
import { buildStepTree, flattenTree, type StepNode } from '@/components/trace/tree';
import type { StepSummary } from '@/lib/runs/view';

/**
 * Pure shaping for the comparison page: the two traces aligned step by step,
 * and the two evidence graphs merged with every element marked as only in A,
 * only in B, or in both.
 */

export interface AlignedRow {
  key: string;
  depth: number;
  kind: string;
  label: string;
  a: StepSummary | null;
  b: StepSummary | null;
  /** Both ran the step and it came out differently (status or headline). */
  differs: boolean;
}

/**
 * Steps match when they sit at the same place in the method's control flow
 * (same kind and label under matching parents, same occurrence): the trace
 * key. The pre-order sequences are merged along their longest common
 * subsequence, so a step only one run took appears where it happened.
 */
export function alignSteps(a: readonly StepSummary[], b: readonly StepSummary[]): AlignedRow[] {
  const seqA = flattenTree(buildStepTree(a).roots);
  const seqB = flattenTree(buildStepTree(b).roots);
  const n = seqA.length;
  const m = seqB.length;
  // lcs[i][j] = LCS length of seqA[i:] and seqB[j:]
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = seqA[i].key === seqB[j].key ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const rows: AlignedRow[] = [];
  const row = (x: StepNode | null, y: StepNode | null): AlignedRow => {
    const node = (x ?? y)!;
    const differs = !!x && !!y && (x.step.status !== y.step.status || (x.step.headline ?? '') !== (y.step.headline ?? ''));
    return { key: node.key, depth: node.depth, kind: node.step.kind, label: node.step.label, a: x?.step ?? null, b: y?.step ?? null, differs };
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && seqA[i].key === seqB[j].key) rows.push(row(seqA[i++], seqB[j++]));
    else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) rows.push(row(seqA[i++], null));
    else rows.push(row(null, seqB[j++]));
  }
  return rows;
}

export type Presence = 'a' | 'b' | 'both';

export interface MergedGraph {
  model: GraphModel;
  presence: Map<string, Presence>;
  counts: { onlyA: number; onlyB: number; both: number };
}

const PRESENCE_CLASS: Record<Presence, EdgeClass> = { a: EDGE_CLASSES.onlyA, b: EDGE_CLASSES.onlyB, both: EDGE_CLASSES.both };

/** Class on nodes that only one run's graph holds (drawn with a ring of that run's colour). */
export const NODE_ONLY_A = 'node-only-a';
export const NODE_ONLY_B = 'node-only-b';

export function mergeGraphs(a: GraphModel, b: GraphModel): MergedGraph {
  const presence = new Map<string, Presence>();
  const mark = (id: string, side: 'a' | 'b') => {
    const was = presence.get(id);
    presence.set(id, was && was !== side ? 'both' : side);
  };
  const nodes = new Map<string, GraphNode>();
  for (const [side, model] of [['a', a], ['b', b]] as const) {
    for (const node of model.nodes) {
      mark(node.id, side);
      const existing = nodes.get(node.id);
      // Seeds and answers of either run keep their rings.
      nodes.set(node.id, existing ? { ...existing, classes: [...new Set([...(existing.classes ?? []), ...(node.classes ?? [])])] } : node);
    }
  }
  const edges = new Map<string, GraphEdge>();
  for (const [side, model] of [['a', a], ['b', b]] as const) {
    for (const edge of model.edges) {
      mark(edge.id, side);
      if (!edges.has(edge.id)) edges.set(edge.id, edge);
    }
  }
  const counts = { onlyA: 0, onlyB: 0, both: 0 };
  const mergedEdges = [...edges.values()].map((edge): GraphEdge => {
    const p = presence.get(edge.id)!;
    counts[p === 'a' ? 'onlyA' : p === 'b' ? 'onlyB' : 'both'] += 1;
    return { id: edge.id, source: edge.source, target: edge.target, label: edge.label, title: edge.title, channel: edge.channel, directed: edge.directed, classes: [PRESENCE_CLASS[p]] };
  });
  const mergedNodes = [...nodes.values()].map((node): GraphNode => {
    const p = presence.get(node.id)!;
    const extra = p === 'a' ? [NODE_ONLY_A] : p === 'b' ? [NODE_ONLY_B] : [];
    return { ...node, classes: [...(node.classes ?? []), ...extra] as GraphNode['classes'] };
  });
  return { model: { nodes: mergedNodes, edges: mergedEdges }, presence, counts };
}
