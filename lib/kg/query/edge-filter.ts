import type { DirectionFilter } from '../types';
import type { GraphSnapshot } from '../store/snapshot';

/** Which incidence entries a traversal may use: a metaedge mask, a direction and a neighbour-kind mask. */
export interface EdgeFilter {
  /** null: every metaedge. */
  metaedges: Uint8Array | null;
  direction: DirectionFilter;
  /** null: every kind. */
  kinds: Uint8Array | null;
}

export interface EdgeFilterSpec {
  metaedges?: readonly string[];
  direction?: DirectionFilter;
  neighborKinds?: readonly string[];
}

export function compileFilter(g: GraphSnapshot, spec: EdgeFilterSpec = {}): EdgeFilter {
  return {
    metaedges: spec.metaedges?.length
      ? mask(
          g.metaedges.length,
          spec.metaedges.map((m) => g.metaedgeIndex.get(m)),
        )
      : null,
    direction: spec.direction ?? 'both',
    kinds: spec.neighborKinds?.length
      ? mask(
          g.kinds.length,
          spec.neighborKinds.map((k) => g.kinds.indexOf(k)),
        )
      : null,
  };
}

function mask(size: number, indexes: (number | undefined)[]): Uint8Array {
  const m = new Uint8Array(size);
  for (const i of indexes) if (i !== undefined && i >= 0) m[i] = 1;
  return m;
}

/** Whether incidence entry `i` of node `v` passes the filter. */
export function passes(g: GraphSnapshot, f: EdgeFilter, v: number, i: number): boolean {
  if (f.metaedges && !f.metaedges[g.incMeta[i]]) return false;
  if (f.direction !== 'both' && (g.edgeSource[g.incEdge[i]] === v) !== (f.direction === 'out')) return false;
  return !f.kinds || f.kinds[g.nodeKind[g.incNeighbor[i]]] === 1;
}

/** Incidence entries of `v` passing `f`, in edge id order. */
export function matchingEntries(g: GraphSnapshot, v: number, f: EdgeFilter): Int32Array {
  const from = g.incStart[v];
  const to = g.incStart[v + 1];
  const out = new Int32Array(to - from);
  let n = 0;
  for (let i = from; i < to; i++) if (passes(g, f, v, i)) out[n++] = i;
  return out.subarray(0, n);
}
