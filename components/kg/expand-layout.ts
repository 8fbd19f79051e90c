import type { NodeSingular, PresetLayoutOptions, Position } from 'cytoscape';
import { centrePositions, ellipseRingPositions, type RadialGeometry } from '@/components/graph/layouts';
import type { GraphModel } from '@/components/graph/model';

/** How far beyond the outer ring new nodes go (two staggered rows, for their labels), and their spacing along it. */
const BEYOND = 80;
const STAGGER = 38;
const SPACING_PX = 48;

/**
 * Positions for an entity neighbourhood with nodes expanded in place. The
 * focus and its own neighbours sit where the radial layout puts them (the same
 * rings, the same order), so expanding never moves what the reader was
 * looking at; each expansion's new nodes fan out beyond the outer ring, on the
 * side of the node they came from (further out for a node that was itself
 * added by an expansion), so they never land on the rings. Pure.
 */
export function expandedPositions(model: GraphModel, parentOf: ReadonlyMap<string, string>, focusId: string, geometry: RadialGeometry): Map<string, Position> {
  const positions = new Map<string, Position>();
  const ring = model.nodes.filter((n) => n.id !== focusId && !parentOf.has(n.id));
  centrePositions(1).forEach((p) => positions.set(focusId, p));
  ellipseRingPositions(ring.length, geometry).forEach((p, i) => positions.set(ring[i].id, p));
  // The outer ellipse of the rings (as ellipseRingPositions sizes it).
  const rx = Math.max(60, geometry.width / 2 - (geometry.marginX ?? 60));
  const ry = Math.max(50, geometry.height / 2 - (geometry.marginY ?? 36));
  // Children grouped by parent, in model order (expansion order), so a parent is placed before its children.
  const children = new Map<string, string[]>();
  for (const node of model.nodes) {
    const parent = parentOf.get(node.id);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), node.id]);
  }
  for (const [parent, ids] of children) {
    const at = positions.get(parent) ?? { x: 0, y: 0 };
    // The parent's direction and its distance from the centre in units of the outer ellipse.
    const angle = at.x === 0 && at.y === 0 ? -Math.PI / 2 : Math.atan2(at.y / ry, at.x / rx);
    const reach = Math.max(1, Math.hypot(at.x / rx, at.y / ry));
    const radiusX = rx * reach + BEYOND;
    const radiusY = ry * reach + BEYOND;
    const step = SPACING_PX / Math.max(radiusX, radiusY);
    ids.forEach((id, i) => {
      const a = angle + (i - (ids.length - 1) / 2) * step;
      const extra = i % 2 ? STAGGER : 0;
      positions.set(id, { x: Math.round((radiusX + extra) * Math.cos(a)), y: Math.round((radiusY + extra) * Math.sin(a)) });
    });
  }
  return positions;
}

/**
 * The Cytoscape layout for `expandedPositions`: a preset whose positions are
 * computed once per layout run, from the container's size at that moment.
 */
export function expandedLayout(model: GraphModel, parentOf: ReadonlyMap<string, string>, focusId: string): PresetLayoutOptions {
  let positions: Map<string, Position> | null = null;
  // Cytoscape's preset layout calls a positions function with the node itself (its typings say the id).
  const positionOf = (node: NodeSingular): Position => {
    if (!positions) {
      const cy = node.cy();
      positions = expandedPositions(model, parentOf, focusId, { width: Math.max(cy.width(), 320), height: Math.max(cy.height(), 240) });
    }
    return positions.get(node.id()) ?? { x: 0, y: 0 };
  };
  return {
    name: 'preset',
    positions: positionOf as unknown as PresetLayoutOptions['positions'],
    fit: true,
    padding: 24,
    animate: false,
  };
}
