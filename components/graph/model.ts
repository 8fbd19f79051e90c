import type { KnowledgeChannel } from '@/lib/trace/types';

/**
 * The generic graph element model shared by every Cytoscape view in Hopscope
 * (KG neighbourhoods, run traces, region graphs, run comparisons).
 *
 * Views build a `GraphModel` with a pure function and hand it to `CytoscapeView`;
 * `toCytoscapeElements` flattens it into Cytoscape's element JSON. Styling keys off
 * the `kind` data attribute and the class names exported here (see `stylesheet.ts`).
 */

/** Classes a node may carry. */
export const NODE_CLASSES = {
  /** The node the view is centred on (entity page focus). */
  focus: 'focus',
  /** A seed / linked entity of a question. */
  seed: 'seed',
  /** A node named in (or supporting) the answer. */
  answer: 'answer',
  /** De-emphasised (filtered out, not on the selected path). */
  faded: 'faded',
  /** Highlighted by the user (hover / selection in a side list). */
  highlighted: 'highlighted',
} as const;
export type NodeClass = (typeof NODE_CLASSES)[keyof typeof NODE_CLASSES];

/** Classes particular views add, styled in view-styles.ts. */
export const VIEW_CLASSES = {
  /** Run graph: an edge coloured by the channel it came from. */
  bySource: 'by-source',
  /** Run graph: a folded group of nodes ("+143 more genes"). */
  aggregate: 'aggregate',
  /** Comparison: a node only run A's graph holds. */
  onlyA: 'node-only-a',
  /** Comparison: a node only run B's graph holds. */
  onlyB: 'node-only-b',
  /** KG browser: a node whose neighbours are expanded in place. */
  expanded: 'expanded',
} as const;

/** Classes an edge may carry. */
export const EDGE_CLASSES = {
  /** Chosen by the method (on the evidence path). */
  selected: 'selected',
  /** Considered but not chosen. */
  candidate: 'candidate',
  /** A hypothesised edge the verifier accepted. */
  hypothesisAccepted: 'hypothesis-accepted',
  /** A hypothesised edge the verifier rejected. */
  hypothesisRejected: 'hypothesis-rejected',
  /** Comparison: present only in run A. */
  onlyA: 'only-a',
  /** Comparison: present only in run B. */
  onlyB: 'only-b',
  /** Comparison: present in both runs. */
  both: 'both',
  /** De-emphasised. */
  faded: 'faded',
  /** Always show the edge label (otherwise labels show on hover only). */
  labelled: 'labelled',
} as const;
export type EdgeClass = (typeof EDGE_CLASSES)[keyof typeof EDGE_CLASSES];

/** A class a single view defines for its own extra stylesheet rules (any string; the known names still autocomplete). */
export type ViewClass = string & {};

/** The knowledge channel an edge came from (see METHODS.md: knowledge switches). */
export type GraphChannel = KnowledgeChannel;

export interface GraphNode {
  id: string;
  label: string;
  /** KG node kind ("Gene", "Disease", ...); unknown kinds get the fallback colour. */
  kind: string;
  /** Known classes, or a view's own (styled by its extra stylesheet). */
  classes?: readonly (NodeClass | ViewClass)[];
  /** Higher is more central in the concentric layout; hop number for layered layouts. */
  rank?: number;
  /** Tooltip / accessible text when different from the label (e.g. full name). */
  title?: string;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label?: string;
  classes?: readonly (EdgeClass | ViewClass)[];
  channel?: GraphChannel;
  /** Whether the edge has a direction (drawn with an arrow). Default true. */
  directed?: boolean;
  /** Tooltip text when different from the label (e.g. "IL6 — associates → asthma"). */
  title?: string;
}

export interface GraphModel {
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
}

/** Flat data of a Cytoscape node (react-cytoscapejs diffs shallowly: keep it flat). */
export interface CyNodeData {
  id: string;
  label: string;
  kind: string;
  title: string;
  rank: number;
  /** Position in the model's node list (layouts that place nodes in order read this). */
  order: number;
}

export interface CyEdgeData {
  id: string;
  source: string;
  target: string;
  label: string;
  channel: string;
  /** Present when the model gave one. */
  title?: string;
}

export interface CyNodeElement {
  group: 'nodes';
  data: CyNodeData;
  classes: string;
}

export interface CyEdgeElement {
  group: 'edges';
  data: CyEdgeData;
  classes: string;
}

export type CyElement = CyNodeElement | CyEdgeElement;
