/**
 * Named colours of the graph views. The legend, kind badges and the Cytoscape
 * stylesheet all read these: change a colour here and every view follows.
 */

import { conceptsOf, kindFor } from '@/lib/kg/relations';

export const KIND_COLORS = {
  Anatomy: '#0891b2',
  'Biological Process': '#65a30d',
  'Cellular Component': '#a16207',
  Compound: '#2563eb',
  Disease: '#dc2626',
  Gene: '#7c3aed',
  'Molecular Function': '#0f766e',
  Pathway: '#059669',
  'Pharmacologic Class': '#db2777',
  'Side Effect': '#ea580c',
  Symptom: '#ca8a04',
} as const satisfies Record<string, string>;

type KnownKind = keyof typeof KIND_COLORS;

/** Colour of a node whose kind means none of the coloured kinds. */
export const FALLBACK_KIND_COLOR = '#64748b';

/** A kind's colour, or that of the kind it means ("Gene/Protein" is coloured as Gene, "Drug" as Compound). */
export function kindColor(kind: string): string {
  const colors = KIND_COLORS as Record<string, string>;
  const concept = conceptsOf(kind)[0];
  return colors[kind] ?? (concept && colors[kindFor(concept, null)!]) ?? FALLBACK_KIND_COLOR;
}

/** Colours of the channels an edge or evidence record can come from; `aids` marks what Hopscope added beyond the paper. */
export const CHANNEL_COLORS = {
  kg: '#64748b',
  doc: '#0369a1',
  entity: '#7e22ce',
  param: '#b45309',
  web: '#0f766e',
  aids: '#be185d',
} as const;

export const EDGE_COLORS = {
  default: '#94a3b8',
  selected: '#1d4ed8',
  candidate: '#94a3b8',
  hypothesisAccepted: '#15803d',
  hypothesisRejected: '#b91c1c',
  onlyA: '#2563eb',
  onlyB: '#ea580c',
  both: '#475569',
} as const;

export const GRAPH_COLORS = {
  label: '#0f172a',
  labelOutline: '#ffffff',
  focusBorder: '#0f172a',
  seedBorder: '#1d4ed8',
  answerBorder: '#b45309',
  highlightBorder: '#f59e0b',
  /** A folded group's border and label; an expanded node's border in the KG browser. */
  aggregateBorder: '#475569',
  aggregateLabel: '#334155',
  expandedBorder: '#334155',
  background: '#ffffff',
} as const;

/** EIGEN-1's candidate lineage: one colour per stage that makes or judges a candidate. */
export const LINEAGE_STAGE_COLORS = {
  proposal: '#2563eb',
  correction: '#7c3aed',
  refinement: '#0891b2',
  'qair-evaluation': '#ca8a04',
  'qair-correction': '#db2777',
  selection: '#b45309',
} as const;
