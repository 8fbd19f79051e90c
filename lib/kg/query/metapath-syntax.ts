import type { DirectionFilter, EdgeDirection, MetapathHop } from '../types';

/**
 * Metapath text: hops separated by '|', each a metaedge abbreviation with an
 * optional ':out' / ':in' / ':both' (default both) saying which side of the stored
 * edge the hop starts on. E.g. "CtD|DaG" or "DaG|Gr>G:out".
 */
export const HOP_SEPARATOR = '|';

export function parseMetapath(spec: string | readonly (string | MetapathHop)[]): MetapathHop[] {
  const parts = typeof spec === 'string' ? spec.split(HOP_SEPARATOR) : spec;
  return parts.map((part) => (typeof part === 'string' ? parseHop(part) : part));
}

function parseHop(text: string): MetapathHop {
  const hop = text.trim();
  const match = /^(.*):(out|in|both)$/.exec(hop);
  const metaedge = match ? match[1] : hop;
  if (!metaedge) throw new Error(`empty hop in metapath: "${text}"`);
  return { metaedge, direction: (match?.[2] as DirectionFilter | undefined) ?? 'both' };
}

/**
 * The metapath of a walked path. The direction is written only for directed
 * metaedges (Gr>G): for the others it is either implied by the node kinds (CtD)
 * or meaningless (GiG), and writing it would split one metapath into two.
 */
export function formatMetapath(hops: { metaedge: string; direction: EdgeDirection; directed: boolean }[]): string {
  return hops.map((h) => (h.directed ? `${h.metaedge}:${h.direction}` : h.metaedge)).join(HOP_SEPARATOR);
}
