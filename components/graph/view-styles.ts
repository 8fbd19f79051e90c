import type { StylesheetJson } from 'cytoscape';
import { CHANNEL_COLORS, EDGE_COLORS, GRAPH_COLORS, LINEAGE_STAGE_COLORS } from './colors';
import { EDGE_CLASSES, VIEW_CLASSES } from './model';

/**
 * The rules each view adds on top of the shared stylesheet (stylesheet.ts), kept
 * here beside it so that every selector and colour of the graph views is in one place.
 */

/** The run graph: unselected candidates faded (solid, so dashes mean hypotheses), edges coloured by source, folded groups. */
export const RUN_GRAPH_STYLES: StylesheetJson = [
  { selector: `edge.${EDGE_CLASSES.candidate}`, style: { 'line-style': 'solid', width: 1, opacity: 0.3 } },
  ...Object.entries(CHANNEL_COLORS).map(([channel, color]) => ({
    selector: `edge.${VIEW_CLASSES.bySource}[channel = ${JSON.stringify(channel)}]`,
    style: { 'line-color': color, 'target-arrow-color': color },
  })),
  { selector: 'node.seed', style: { 'z-index': 15 } },
  {
    selector: `node.${VIEW_CLASSES.aggregate}`,
    style: {
      shape: 'round-rectangle',
      width: 30,
      height: 18,
      'background-opacity': 0.35,
      'border-width': 1.5,
      'border-style': 'dashed',
      'border-color': GRAPH_COLORS.aggregateBorder,
      'font-style': 'italic',
      color: GRAPH_COLORS.aggregateLabel,
    },
  },
];

/** Two runs' graphs merged: nodes only one run holds are ringed in its colour. */
export const COMPARE_STYLES: StylesheetJson = [
  ...RUN_GRAPH_STYLES,
  { selector: `node.${VIEW_CLASSES.onlyA}`, style: { 'border-width': 3, 'border-color': EDGE_COLORS.onlyA } },
  { selector: `node.${VIEW_CLASSES.onlyB}`, style: { 'border-width': 3, 'border-color': EDGE_COLORS.onlyB } },
];

/** The KG browser: an expanded node is double-ringed. */
export const EXPANDED_STYLES: StylesheetJson = [
  { selector: `node.${VIEW_CLASSES.expanded}`, style: { 'border-width': 4, 'border-style': 'double', 'border-color': GRAPH_COLORS.expandedBorder } },
];

/** EIGEN-1's candidate lineage: stages by colour, failed and passed candidates ringed, the ranker's selection bold. */
export const LINEAGE_STYLES: StylesheetJson = [
  ...Object.entries(LINEAGE_STAGE_COLORS).map(([stage, color]) => ({
    selector: `node[kind = ${JSON.stringify(stage)}]`,
    style: { 'background-color': color, shape: 'round-rectangle' as const, width: 26, height: 18 },
  })),
  { selector: 'node.failed', style: { 'border-width': 3, 'border-color': EDGE_COLORS.hypothesisRejected } },
  { selector: 'node.passed', style: { 'border-width': 3, 'border-color': EDGE_COLORS.hypothesisAccepted } },
  { selector: 'edge', style: { 'curve-style': 'bezier', opacity: 0.7, 'text-opacity': 0 } },
  { selector: 'edge.reference', style: { 'line-style': 'dotted', opacity: 0.35 } },
  {
    selector: 'edge.selects',
    style: { width: 3, 'line-color': LINEAGE_STAGE_COLORS.selection, 'target-arrow-color': LINEAGE_STAGE_COLORS.selection, opacity: 1 },
  },
];
