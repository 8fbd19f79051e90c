import type { StylesheetJson } from 'cytoscape';
import { CHANNEL_COLORS, EDGE_COLORS, FALLBACK_KIND_COLOR, GRAPH_COLORS, KIND_COLORS } from './colors';
import { EDGE_CLASSES, NODE_CLASSES } from './model';

/**
 * The one Cytoscape stylesheet of Hopscope. Selectors use the `kind` / `channel`
 * data attributes and the class names of `model.ts`; colours come from `colors.ts`.
 * Rules later in the list win, so state classes come after the base rules.
 */

/** Node label size and the size under which Cytoscape hides a label (both in model pixels at zoom 1). */
export const NODE_FONT_SIZE = 11;
export const MIN_ZOOMED_FONT_SIZE = 6;
/** The zoom at or above which node labels are drawn. */
export const LABEL_MIN_ZOOM = MIN_ZOOMED_FONT_SIZE / NODE_FONT_SIZE;

/** Class the canvas puts on the element under the pointer. */
export const HOVER_CLASS = 'hover';

const kindRules: StylesheetJson = Object.entries(KIND_COLORS).map(([kind, color]) => ({
  selector: `node[kind = ${JSON.stringify(kind)}]`,
  style: { 'background-color': color },
}));

const channelRules: StylesheetJson = Object.entries(CHANNEL_COLORS).map(([channel, color]) => ({
  selector: `edge[channel = ${JSON.stringify(channel)}]`,
  style: { 'line-color': color, 'target-arrow-color': color },
}));

const N = NODE_CLASSES;
const E = EDGE_CLASSES;

export const GRAPH_STYLESHEET: StylesheetJson = [
  {
    selector: 'node',
    style: {
      'background-color': FALLBACK_KIND_COLOR,
      label: 'data(label)',
      color: GRAPH_COLORS.label,
      'font-size': NODE_FONT_SIZE,
      'font-family': 'ui-sans-serif, system-ui, sans-serif',
      'text-valign': 'bottom',
      'text-halign': 'center',
      'text-margin-y': 3,
      'text-outline-color': GRAPH_COLORS.labelOutline,
      'text-outline-width': 2,
      'text-outline-opacity': 0.9,
      'min-zoomed-font-size': MIN_ZOOMED_FONT_SIZE,
      width: 20,
      height: 20,
      'border-width': 1,
      'border-color': '#ffffff',
      'overlay-padding': 4,
    },
  },
  ...kindRules,
  {
    selector: 'edge',
    style: {
      width: 1.25,
      'line-color': EDGE_COLORS.default,
      'target-arrow-color': EDGE_COLORS.default,
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.7,
      'curve-style': 'bezier',
      opacity: 0.6,
      label: 'data(label)',
      'font-size': 9,
      color: '#334155',
      'text-opacity': 0,
      'text-rotation': 'autorotate',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0,
      'text-background-padding': '1px',
    },
  },
  ...channelRules,
  { selector: 'edge.undirected', style: { 'target-arrow-shape': 'none' } },
  { selector: `edge.${E.labelled}`, style: { 'text-opacity': 1, 'text-background-opacity': 0.85 } },
  { selector: `edge.${E.selected}`, style: { width: 3, 'line-color': EDGE_COLORS.selected, 'target-arrow-color': EDGE_COLORS.selected, opacity: 1 } },
  { selector: `edge.${E.candidate}`, style: { 'line-style': 'dashed', 'line-color': EDGE_COLORS.candidate, 'target-arrow-color': EDGE_COLORS.candidate } },
  {
    selector: `edge.${E.hypothesisAccepted}`,
    style: {
      width: 2.5,
      'line-style': 'dashed',
      'line-color': EDGE_COLORS.hypothesisAccepted,
      'target-arrow-color': EDGE_COLORS.hypothesisAccepted,
      opacity: 1,
    },
  },
  {
    selector: `edge.${E.hypothesisRejected}`,
    style: { width: 2, 'line-style': 'dotted', 'line-color': EDGE_COLORS.hypothesisRejected, 'target-arrow-color': EDGE_COLORS.hypothesisRejected },
  },
  { selector: `edge.${E.onlyA}`, style: { width: 2.5, 'line-color': EDGE_COLORS.onlyA, 'target-arrow-color': EDGE_COLORS.onlyA, opacity: 1 } },
  { selector: `edge.${E.onlyB}`, style: { width: 2.5, 'line-color': EDGE_COLORS.onlyB, 'target-arrow-color': EDGE_COLORS.onlyB, opacity: 1 } },
  { selector: `edge.${E.both}`, style: { width: 2, 'line-color': EDGE_COLORS.both, 'target-arrow-color': EDGE_COLORS.both } },
  {
    selector: `node.${N.focus}`,
    style: {
      width: 36,
      height: 36,
      'border-width': 4,
      'border-color': GRAPH_COLORS.focusBorder,
      'font-size': 14,
      'font-weight': 'bold',
      'z-index': 10,
    },
  },
  { selector: `node.${N.seed}`, style: { width: 26, height: 26, 'border-width': 3, 'border-color': GRAPH_COLORS.seedBorder, 'font-weight': 'bold' } },
  {
    selector: `node.${N.answer}`,
    style: { width: 26, height: 26, 'border-width': 4, 'border-style': 'double', 'border-color': GRAPH_COLORS.answerBorder, 'font-weight': 'bold' },
  },
  { selector: `node.${N.highlighted}`, style: { 'border-width': 3, 'border-color': GRAPH_COLORS.highlightBorder, 'z-index': 20 } },
  { selector: `.${N.faded}`, style: { opacity: 0.2, 'text-opacity': 0.4 } },
  { selector: `node.${HOVER_CLASS}`, style: { 'border-width': 3, 'border-color': GRAPH_COLORS.highlightBorder, 'z-index': 30, 'font-size': 12 } },
  { selector: `edge.${HOVER_CLASS}`, style: { width: 2.5, opacity: 1, 'text-opacity': 1, 'text-background-opacity': 0.85, 'z-index': 30 } },
  { selector: 'node:selected', style: { 'border-width': 3, 'border-color': GRAPH_COLORS.seedBorder } },
];
