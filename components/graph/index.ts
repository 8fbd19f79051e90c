// Shared graph pieces. Import the client component from './CytoscapeView' in client code;
// the pure modules below are safe anywhere (server, tests).
export { CHANNEL_COLORS, EDGE_COLORS, FALLBACK_KIND_COLOR, GRAPH_COLORS, KIND_COLORS, kindColor, type KnownKind } from './colors';
export { kindsInModel, toCytoscapeElements, truncateLabel, type ToElementsOptions } from './elements';
export { pngFileName } from './export-png';
export { GraphLegend, type GraphLegendProps, type LegendExtra } from './Legend';
export {
  EDGE_CLASSES,
  NODE_CLASSES,
  type CyEdgeElement,
  type CyElement,
  type CyNodeElement,
  type EdgeClass,
  type GraphChannel,
  type GraphEdge,
  type GraphModel,
  type GraphNode,
  type NodeClass,
} from './model';
export { GRAPH_STYLESHEET, HOVER_CLASS } from './stylesheet';
export { CytoscapeView, type ActivatedElement, type CytoscapeViewProps, type HoverInfo } from './CytoscapeView';
export { GraphControls, type GraphControlsProps } from './GraphControls';
export { concentricLayout, forceLayout, GRAPH_LAYOUTS, layeredLayout, resolveLayout, type GraphLayoutName } from './layouts';
