import type { QualityScores } from './quality';

/**
 * The candidate lineage graph the run page draws: every version of every
 * candidate (proposal → correction → HSR refinement → QAIR evaluations and
 * corrections) and the ranker's selection, with the answer and scores on each
 * node. Lanes follow one proposer's line; HSR edges cross lanes (references).
 */

export type LineageStage = 'proposal' | 'correction' | 'refinement' | 'qair-evaluation' | 'qair-correction' | 'selection';

export interface LineageNode {
  id: string;
  stage: LineageStage;
  /** The proposer line this node belongs to (1-based). */
  lane: number;
  /** QAIR round, for evaluation and QAIR-correction nodes. */
  round: number | null;
  answer: string;
  abstained: boolean;
  q: number | null;
  scores: QualityScores | null;
  passed: boolean | null;
}

export interface LineageEdge {
  from: string;
  to: string;
  /** revises: a new version of the same candidate; anchor/reference: HSR inputs; evaluates: a QAIR score; selects: the ranker's pick. */
  relation: 'revises' | 'anchor' | 'reference' | 'evaluates' | 'selects';
}

export interface LineageGraph {
  nodes: LineageNode[];
  edges: LineageEdge[];
}

export class Lineage {
  private readonly nodes: LineageNode[] = [];
  private readonly edges: LineageEdge[] = [];

  add(node: Omit<LineageNode, 'round' | 'q' | 'scores' | 'passed'> & Partial<Pick<LineageNode, 'round' | 'q' | 'scores' | 'passed'>>): void {
    if (this.nodes.some((n) => n.id === node.id)) throw new Error(`lineage node ${node.id} added twice`);
    this.nodes.push({ round: null, q: null, scores: null, passed: null, ...node });
  }

  link(from: string, to: string, relation: LineageEdge['relation']): void {
    for (const id of [from, to]) if (!this.nodes.some((n) => n.id === id)) throw new Error(`lineage edge names unknown node ${id}`);
    this.edges.push({ from, to, relation });
  }

  graph(): LineageGraph {
    return { nodes: this.nodes.map((n) => ({ ...n })), edges: this.edges.map((e) => ({ ...e })) };
  }
}
