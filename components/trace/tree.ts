import type { StepSummary } from '@/lib/runs/view';

/**
 * Pure shaping of a run's steps (flat, by ordinal, each naming its parent)
 * into the trace tree the timeline draws, plus the per-stage progress and the
 * "as of this step" cut the graph filter uses. No React here.
 */
export interface StepNode {
  step: StepSummary;
  depth: number;
  children: StepNode[];
  /** Path of `kind:label#n` segments: the same step in another run of the method has the same key. */
  key: string;
  /** Highest ordinal in this step's subtree (the step itself included). */
  lastOrdinal: number;
}

export interface StepTree {
  roots: StepNode[];
  byId: Map<string, StepNode>;
  byOrdinal: Map<number, StepNode>;
}

export function buildStepTree(steps: readonly StepSummary[]): StepTree {
  const sorted = [...steps].sort((a, b) => a.ordinal - b.ordinal);
  const byId = new Map<string, StepNode>();
  const byOrdinal = new Map<number, StepNode>();
  const roots: StepNode[] = [];
  for (const step of sorted) byId.set(step.id, { step, depth: 0, children: [], key: '', lastOrdinal: step.ordinal });
  for (const step of sorted) {
    const node = byId.get(step.id)!;
    byOrdinal.set(step.ordinal, node);
    const parent = step.parentStepId ? byId.get(step.parentStepId) : undefined;
    // A step whose parent is missing (should not happen) is shown at the top rather than lost.
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const assign = (nodes: StepNode[], depth: number, prefix: string) => {
    const seen = new Map<string, number>();
    for (const node of nodes) {
      const base = `${node.step.kind}:${node.step.label}`;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      node.depth = depth;
      node.key = `${prefix}/${base}#${n}`;
      assign(node.children, depth + 1, node.key);
      node.lastOrdinal = Math.max(node.step.ordinal, ...node.children.map((c) => c.lastOrdinal));
    }
  };
  assign(roots, 0, '');
  return { roots, byId, byOrdinal };
}

/** Every node in display (pre-)order. */
export function flattenTree(roots: readonly StepNode[]): StepNode[] {
  const out: StepNode[] = [];
  const walk = (nodes: readonly StepNode[]) => {
    for (const n of nodes) {
      out.push(n);
      walk(n.children);
    }
  };
  walk(roots);
  return out;
}

/** Ids of a step's ancestors, nearest last (to open the path to a selected step). */
export function ancestorIds(tree: StepTree, stepId: string): string[] {
  const out: string[] = [];
  let current = tree.byId.get(stepId)?.step.parentStepId ?? null;
  while (current) {
    out.unshift(current);
    current = tree.byId.get(current)?.step.parentStepId ?? null;
  }
  return out;
}

export interface StageProgress {
  kind: string;
  total: number;
  running: number;
  succeeded: number;
  failed: number;
  skipped: number;
  ms: number;
  calls: number;
}

/**
 * Progress per stage: the top-level steps grouped by kind, in the order the
 * stages first ran. Their nested steps' model calls count towards the stage.
 * A stage planned at a known size (K proposers) counts towards that total,
 * however many of its steps have started yet.
 */
export function stageProgress(tree: StepTree, planned: Readonly<Record<string, number>> = {}): StageProgress[] {
  const stages = new Map<string, StageProgress>();
  for (const root of tree.roots) {
    const stage = stages.get(root.step.kind) ?? { kind: root.step.kind, total: 0, running: 0, succeeded: 0, failed: 0, skipped: 0, ms: 0, calls: 0 };
    stage.total += 1;
    stage[root.step.status] += 1;
    stage.ms += root.step.durationMs ?? 0;
    stage.calls += flattenTree([root]).reduce((sum, n) => sum + n.step.calls, 0);
    stages.set(root.step.kind, stage);
  }
  for (const stage of stages.values()) stage.total = Math.max(stage.total, planned[stage.kind] ?? 0);
  return [...stages.values()];
}

/** A readable stage name: "eigen1.qair-round" → "qair round", "channel.kg" → "kg channel". */
export function stageName(kind: string): string {
  const [head, ...rest] = kind.split('.');
  if (!rest.length) return head.replace(/[-_]/g, ' ');
  if (head === 'channel') return `${rest.join(' ')} channel`;
  return rest.join(' ').replace(/[-_]/g, ' ');
}

/**
 * The steps the graph filter offers: top-level steps and their children that
 * brought evidence (directly or below), i.e. the hops / iterations / rounds.
 */
export function filterableSteps(tree: StepTree, evidenceStepIds: ReadonlySet<string>): StepNode[] {
  const brings = (n: StepNode): boolean => evidenceStepIds.has(n.step.id) || n.children.some(brings);
  return flattenTree(tree.roots).filter((n) => n.depth <= 1 && brings(n));
}
