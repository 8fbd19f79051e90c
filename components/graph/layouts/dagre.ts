import type { Core, LayoutOptions, Position } from 'cytoscape';

/** A rank (column) holds at most this many nodes before it wraps into side-by-side columns. */
export const MAX_PER_COLUMN = 10;
const COLUMN_GAP = 120;
const ROW_GAP = 36;
/** Clear space kept between the label-inclusive boxes of neighbours in a wrapped rank. */
const BOX_MARGIN = 8;

/** A node's position and, when known, the size of its box with its label (model pixels). */
export interface PlacedNode {
  id: string;
  x: number;
  y: number;
  w?: number;
  h?: number;
}

/**
 * Positions after wrapping tall ranks (pure): nodes sharing an x (a dagre rank,
 * left to right) that number more than `maxPerColumn` are laid out in several
 * columns side by side, every rank to the right moves over to make room, and
 * every rank is centred on one line. Rows and columns are at least as far apart
 * as the rank's largest label-inclusive box (plus a margin), so a label never
 * touches the node under it or the column beside it.
 * Keeps a "2 anchors → 25 answers" graph at a legible zoom.
 */
export function wrapTallRanks(nodes: readonly PlacedNode[], maxPerColumn = MAX_PER_COLUMN): Map<string, Position> {
  const ranks = new Map<number, PlacedNode[]>();
  for (const n of nodes) {
    const key = Math.round(n.x);
    ranks.set(key, [...(ranks.get(key) ?? []), n]);
  }
  const out = new Map<string, Position>();
  let shift = 0;
  for (const x of [...ranks.keys()].sort((a, b) => a - b)) {
    const members = ranks.get(x)!.sort((a, b) => a.y - b.y);
    if (members.length <= maxPerColumn) {
      for (const n of members) out.set(n.id, { x: n.x + shift, y: n.y });
      continue;
    }
    const columns = Math.ceil(members.length / maxPerColumn);
    const perColumn = Math.ceil(members.length / columns);
    const rowGap = Math.max(ROW_GAP, ...members.map((n) => (n.h ?? 0) + BOX_MARGIN));
    const columnGap = Math.max(COLUMN_GAP, ...members.map((n) => (n.w ?? 0) + BOX_MARGIN * 2));
    const centre = (members[0].y + members.at(-1)!.y) / 2;
    members.forEach((n, i) => {
      const column = Math.floor(i / perColumn);
      const row = i % perColumn;
      const inColumn = Math.min(perColumn, members.length - column * perColumn);
      out.set(n.id, { x: x + shift + column * columnGap, y: centre + (row - (inColumn - 1) / 2) * rowGap });
    });
    shift += (columns - 1) * columnGap;
  }
  // A short rank that dagre spread along a tall one (two anchors at its ends) spans no more than the wrapped ranks do.
  const span = (ids: string[]) => {
    const ys = ids.map((id) => out.get(id)!.y);
    return { low: Math.min(...ys), high: Math.max(...ys) };
  };
  const rankIds = [...ranks.values()].map((members) => members.map((n) => n.id));
  const size = new Map(nodes.map((n) => [n.id, { h: n.h }]));
  if (shift > 0) {
    const tallest = Math.max(...rankIds.filter((ids) => ids.length > maxPerColumn).map((ids) => span(ids).high - span(ids).low));
    for (const ids of rankIds) {
      const { low, high } = span(ids);
      if (ids.length > maxPerColumn || high - low <= tallest) continue;
      const scale = tallest / (high - low);
      for (const id of ids) out.get(id)!.y = low + (out.get(id)!.y - low) * scale;
      // Squeezing never brings two boxes closer than they need: neighbours are pushed apart again.
      const boxes = ids.map((id) => ({ p: out.get(id)!, h: size.get(id)?.h ?? ROW_GAP - BOX_MARGIN })).sort((a, b) => a.p.y - b.p.y);
      for (let i = 1; i < boxes.length; i++) boxes[i].p.y = Math.max(boxes[i].p.y, boxes[i - 1].p.y + (boxes[i - 1].h + boxes[i].h) / 2 + BOX_MARGIN);
    }
  }
  // Centre every rank on one horizontal line, so a short rank (the anchors) faces the middle of a wrapped one.
  const all = [...out.values()].map((p) => p.y);
  const middle = (Math.min(...all) + Math.max(...all)) / 2;
  for (const ids of rankIds) {
    const { low, high } = span(ids);
    const offset = middle - (low + high) / 2;
    for (const id of ids) out.get(id)!.y += offset;
  }
  return out;
}

/**
 * Layered layout (cytoscape-dagre, registered once in `../extensions.ts`):
 * ranks left to right along the edges' direction, so a run reads from its
 * anchors through each hop to the answer; tall ranks wrap into columns. Node
 * boxes include their labels, so labels of one rank never overlap.
 */
export function dagreLayout(overrides: Record<string, unknown> = {}): LayoutOptions {
  const padding = 24;
  return {
    name: 'dagre',
    rankDir: 'LR',
    ranker: 'network-simplex',
    nodeSep: 10,
    rankSep: 70,
    edgeSep: 6,
    nodeDimensionsIncludeLabels: true,
    fit: true,
    padding,
    animate: false,
    stop: (event: { cy: Core }) => {
      const cy = event.cy;
      const wrapped = wrapTallRanks(
        cy.nodes().map((n) => {
          const box = n.boundingBox({ includeLabels: true, includeOverlays: false });
          return { id: n.id(), ...n.position(), w: box.w, h: box.h };
        }),
      );
      cy.nodes().positions((n) => wrapped.get(n.id()) ?? n.position());
      cy.fit(undefined, padding);
    },
    ...overrides,
  } as LayoutOptions;
}
