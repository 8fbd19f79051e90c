import type { Core, LayoutOptions } from 'cytoscape';
import { concentricLayout } from './concentric';
import { dagreLayout } from './dagre';
import { forceLayout } from './force';
import { layeredLayout } from './layered';
import { radialLayout } from './radial';

export { concentricLayout } from './concentric';
export { centrePositions, ellipseRingPositions, type RadialGeometry } from './radial';

/** The layouts a `CytoscapeView` can be asked for by name; each may look at the graph. */
export const GRAPH_LAYOUTS = {
  radial: (cy: Core) => radialLayout(cy),
  concentric: () => concentricLayout(),
  layered: (cy: Core) => layeredLayout(cy),
  force: () => forceLayout(),
  dagre: () => dagreLayout(),
} as const satisfies Record<string, (cy: Core) => LayoutOptions>;

export type GraphLayoutName = keyof typeof GRAPH_LAYOUTS;

export function resolveLayout(layout: GraphLayoutName | LayoutOptions, cy: Core): LayoutOptions {
  return typeof layout === 'string' ? GRAPH_LAYOUTS[layout](cy) : layout;
}
