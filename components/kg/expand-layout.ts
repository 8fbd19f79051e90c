import type { NodeSingular, PresetLayoutOptions, Position } from 'cytoscape';
import { centrePositions, ellipseRingPositions, type RadialGeometry } from '@/components/graph/layouts';
import type { GraphModel } from '@/components/graph/model';

/** Distance from an expanded node to the arc of its new neighbours, and the angle between two of them. */
const ARC_RADIUS = 120;
const ARC_STEP = Math.PI / 11;
const MAX_ARC = (Math.PI * 5) / 6;

/**
 * Positions for an entity neighbourhood with nodes expanded in place. The
 * focus and its own neighbours sit where the radial layout puts them (the same
 * rings, the same order), so expanding never moves what the reader was
 * looking at; each expansion's new nodes fan out on an arc beside the node
 * they came from, facing away from the centre. Pure.
 */
export function expandedPositions(model: GraphModel, parentOf: ReadonlyMap<string, string>, focusId: string, geometry: RadialGeometry): Map<string, Position> {
  const positions = new Map<string, Position>();
  const ring = model.nodes.filter((n) => n.id !== focusId && !parentOf.has(n.id));
  centrePositions(1).forEach((p) => positions.set(focusId, p));
  ellipseRingPositions(ring.length, geometry).forEach((p, i) => positions.set(ring[i].id, p));
  // Children grouped by parent, in model order (expansion order), so a parent is placed before its children.
  const children = new Map<string, string[]>();
  for (const node of model.nodes) {
    const parent = parentOf.get(node.id);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), node.id]);
  }
  for (const [parent, ids] of children) {
    const at = positions.get(parent) ?? { x: 0, y: 0 };
    const outward = at.x === 0 && at.y === 0 ? -Math.PI / 2 : Math.atan2(at.y, at.x);
    const spread = Math.min(MAX_ARC, ARC_STEP * (ids.length - 1));
    const radius = ARC_RADIUS + 6 * ids.length;
    ids.forEach((id, i) => {
      const angle = outward - spread / 2 + (ids.length > 1 ? (spread * i) / (ids.length - 1) : 0);
      positions.set(id, { x: Math.round(at.x + radius * Math.cos(angle)), y: Math.round(at.y + radius * Math.sin(angle)) });
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
