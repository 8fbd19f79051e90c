import type { MetapathHop } from '../types';
import type { GraphSnapshot } from '../store/snapshot';
import { compileFilter, type EdgeFilter } from './edge-filter';

/** One edge filter per metapath hop; a metaedge the graph lacks matches nothing. */
export function hopFilters(g: GraphSnapshot, hops: MetapathHop[]): EdgeFilter[] {
  return hops.map((h) => compileFilter(g, { metaedges: [h.metaedge], direction: h.direction }));
}

/** The same hop seen from its far end (for walking a metapath backwards from a target). */
export function reversedHopFilter(g: GraphSnapshot, hop: MetapathHop): EdgeFilter {
  const direction = hop.direction === 'out' ? 'in' : hop.direction === 'in' ? 'out' : 'both';
  return compileFilter(g, { metaedges: [hop.metaedge], direction });
}
