import type { PresetLayoutOptions } from 'cytoscape';
import type { GraphModel } from '@/components/graph/model';
import type { StepOutput } from '@/lib/trace/step-schemas';

/**
 * EIGEN-1's candidate lineage (the 'eigen1.lineage' step output, as its step
 * contract reads it) as a graph model and a lane layout: one row per proposer
 * line, one column per stage (QAIR rounds get a column pair each), the
 * ranker's selection last. Pure.
 */
export type LineageGraphData = StepOutput<'eigen1.lineage'>;
export type LineageNodeData = LineageGraphData['nodes'][number];

const COLUMN_GAP = 190;
const LANE_GAP = 64;

export function lineageColumn(node: Pick<LineageNodeData, 'stage' | 'round'>, maxRound: number): number {
  const r = Math.max(1, node.round ?? 1);
  switch (node.stage) {
    case 'proposal':
      return 0;
    case 'correction':
      return 1;
    case 'refinement':
      return 2;
    case 'qair-evaluation':
      return 3 + 2 * (r - 1);
    case 'qair-correction':
      return 4 + 2 * (r - 1);
    case 'selection':
      return 3 + 2 * Math.max(1, maxRound);
    default:
      return 0;
  }
}

export function lineageModel(data: LineageGraphData): GraphModel {
  return {
    nodes: data.nodes.map((n) => {
      const answer = n.abstained ? '(abstained)' : n.answer || '—';
      const q = n.q === null ? '' : ` q=${n.q.toFixed(2)}`;
      return {
        id: n.id,
        label: `${n.id}: ${answer}${q}`,
        title: `${n.id} · ${n.stage}${n.round ? ` round ${n.round}` : ''} · answer: ${answer}${q}${n.passed === null ? '' : n.passed ? ' (passed)' : ' (below τ)'}`,
        kind: n.stage,
        classes: n.passed === true ? ['passed'] : n.passed === false ? ['failed'] : [],
      };
    }),
    edges: data.edges.map((e, i) => ({ id: `lineage:${i}:${e.from}>${e.to}`, source: e.from, target: e.to, label: e.relation, classes: [e.relation] })),
  };
}

export function lineageLayout(data: LineageGraphData): PresetLayoutOptions {
  const maxRound = Math.max(0, ...data.nodes.map((n) => n.round ?? 0));
  const lanes = [...new Set(data.nodes.map((n) => n.lane))].sort((a, b) => a - b);
  const positions: Record<string, { x: number; y: number }> = {};
  for (const n of data.nodes) positions[n.id] = { x: lineageColumn(n, maxRound) * COLUMN_GAP, y: lanes.indexOf(n.lane) * LANE_GAP };
  const selection = data.nodes.find((n) => n.stage === 'selection');
  // The selection sits in the middle of the lanes, so its edge from the chosen line stays visible.
  if (selection) positions[selection.id] = { x: positions[selection.id].x, y: ((lanes.length - 1) * LANE_GAP) / 2 };
  return { name: 'preset', positions, fit: true, padding: 30, animate: false };
}
