import type { Core, NodeSingular, PresetLayoutOptions, Position } from 'cytoscape';

export interface RadialGeometry {
  /** Drawing area in model units (the container size, so that fitting keeps zoom near 1). */
  width: number;
  height: number;
  /** Room kept outside the outer ring for labels. Default 60 horizontally, 36 vertically. */
  marginX?: number;
  marginY?: number;
}

/** How many rings `count` neighbours go on: 1 up to 16, 2 up to 40, then 3. */
export function ringCount(count: number): number {
  if (count <= 16) return 1;
  if (count <= 40) return 2;
  return 3;
}

const RING_SCALES = [1, 0.8, 0.6];

/**
 * Positions of `count` nodes on concentric ellipses shaped like the drawing area
 * (a wide panel gets wide rings). Node i sits at angle 2πi/count from 12 o'clock,
 * clockwise, on ring i mod rings: consecutive nodes alternate between rings, so
 * every node has its own angle and neighbouring labels do not collide. Pure.
 */
export function ellipseRingPositions(count: number, geometry: RadialGeometry): Position[] {
  if (count <= 0) return [];
  const rx = Math.max(60, geometry.width / 2 - (geometry.marginX ?? 60));
  const ry = Math.max(50, geometry.height / 2 - (geometry.marginY ?? 36));
  const rings = ringCount(count);
  const positions: Position[] = [];
  for (let i = 0; i < count; i++) {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / count;
    const scale = RING_SCALES[i % rings]!;
    positions.push({ x: Math.round(rx * scale * Math.cos(angle)), y: Math.round(ry * scale * Math.sin(angle)) });
  }
  return positions;
}

/** Positions of the central nodes: one at the origin, several on a small circle. */
export function centrePositions(count: number, radius = 40): Position[] {
  if (count <= 1) return count === 1 ? [{ x: 0, y: 0 }] : [];
  return Array.from({ length: count }, (_, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / count;
    return { x: Math.round(radius * Math.cos(angle)), y: Math.round(radius * Math.sin(angle)) };
  });
}

/**
 * Radial layout for an entity neighbourhood: the highest-`rank` nodes (the focus)
 * in the centre, the others on elliptical rings in element order (sort the model
 * by kind and colours cluster). Sized to the container, so labels stay readable.
 */
export function radialLayout(cy: Core): PresetLayoutOptions {
  // Element order in Cytoscape changes as views add and remove nodes: use the model's order.
  const orderOf = (n: NodeSingular) => Number(n.data('order') ?? 0);
  const nodes = cy
    .nodes()
    .toArray()
    .sort((a, b) => orderOf(a) - orderOf(b));
  const rankOf = (n: NodeSingular) => Number(n.data('rank') ?? 0);
  const top = nodes.reduce((max, n) => Math.max(max, rankOf(n)), Number.NEGATIVE_INFINITY);
  const centre = nodes.filter((n) => rankOf(n) === top && nodes.length > 1);
  const ring = nodes.filter((n) => !centre.includes(n));
  const geometry = { width: Math.max(cy.width(), 320), height: Math.max(cy.height(), 240) };
  const positions: Record<string, Position> = {};
  centrePositions(centre.length).forEach((p, i) => (positions[centre[i]!.id()] = p));
  ellipseRingPositions(ring.length, geometry).forEach((p, i) => (positions[ring[i]!.id()] = p));
  return { name: 'preset', positions, fit: true, padding: 24, animate: false };
}
