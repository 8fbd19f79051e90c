import type { ConcentricLayoutOptions, NodeSingular } from 'cytoscape';

/**
 * Rings by the node's `rank` data (higher rank nearer the centre): the focus of
 * an entity page at rank 2 in the middle, neighbours on one or two rings around it.
 * Within a ring nodes keep element order, so a model sorted by kind clusters colours.
 */
export function concentricLayout(overrides: Partial<ConcentricLayoutOptions> = {}): ConcentricLayoutOptions {
  return {
    name: 'concentric',
    concentric: (node: NodeSingular) => Number(node.data('rank') ?? 0),
    levelWidth: () => 1,
    minNodeSpacing: 34,
    avoidOverlap: true,
    startAngle: (3 / 2) * Math.PI,
    clockwise: true,
    fit: true,
    padding: 36,
    animate: false,
    ...overrides,
  };
}
