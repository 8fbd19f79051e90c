import type { BreadthFirstLayoutOptions, Core } from 'cytoscape';

/** Cytoscape selector for the roots of a layered layout. */
export const LAYERED_ROOTS_SELECTOR = 'node.seed, node.focus';

/**
 * Hop-by-hop layers, left to right, rooted at the seed / focus nodes (or at the
 * graph's own roots when there are none): the layout for run traces and paths.
 */
export function layeredLayout(cy: Core | null, overrides: Partial<BreadthFirstLayoutOptions> = {}): BreadthFirstLayoutOptions {
  const roots = cy?.$(LAYERED_ROOTS_SELECTOR);
  return {
    name: 'breadthfirst',
    directed: true,
    direction: 'rightward',
    ...(roots && roots.nonempty() ? { roots } : {}),
    spacingFactor: 1.1,
    avoidOverlap: true,
    fit: true,
    padding: 36,
    animate: false,
    ...overrides,
  } as BreadthFirstLayoutOptions;
}
