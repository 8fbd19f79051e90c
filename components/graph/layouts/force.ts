import type { CoseLayoutOptions } from 'cytoscape';

/**
 * Force-directed layout (Cytoscape's built-in cose) for region graphs and
 * comparisons, where there is no single centre. Seeded for a stable picture.
 */
export function forceLayout(overrides: Partial<CoseLayoutOptions> = {}): CoseLayoutOptions {
  return {
    name: 'cose',
    animate: false,
    fit: true,
    padding: 36,
    randomize: false,
    nodeRepulsion: () => 9000,
    idealEdgeLength: () => 80,
    componentSpacing: 60,
    nodeOverlap: 12,
    numIter: 1000,
    ...overrides,
  } as CoseLayoutOptions;
}
