/**
 * URLs of the KG browser. Node ids go into one path segment, percent-encoded,
 * except that ':' stays readable (`/kg/Disease::DOID:2377`): it is legal in a
 * path segment and Next hands it back unchanged.
 */
export function encodeNodeIdSegment(id: string): string {
  return encodeURIComponent(id).replace(/%3A/gi, ':');
}

export interface NeighbourhoodFilter {
  metaedge: string | null;
  direction: 'out' | 'in' | null;
}

export const NO_FILTER: NeighbourhoodFilter = { metaedge: null, direction: null };

const METAEDGE_RE = /^[A-Za-z][A-Za-z>]{1,9}$/;

/** Reads the neighbourhood filter from the query string; invalid values are ignored. */
export function parseNeighbourhoodFilter(params: { get(name: string): string | null }): NeighbourhoodFilter {
  const metaedge = params.get('metaedge');
  const direction = params.get('direction');
  const validMetaedge = metaedge && METAEDGE_RE.test(metaedge) ? metaedge : null;
  return {
    metaedge: validMetaedge,
    direction: validMetaedge && (direction === 'out' || direction === 'in') ? direction : null,
  };
}

/** Same, from a Next page's `searchParams` object. */
export function filterFromSearchParams(searchParams: Record<string, string | string[] | undefined>): NeighbourhoodFilter {
  return parseNeighbourhoodFilter({
    get: (name) => {
      const v = searchParams[name];
      return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
    },
  });
}

export function filterQueryString(filter: NeighbourhoodFilter): string {
  const params = new URLSearchParams();
  if (filter.metaedge) {
    params.set('metaedge', filter.metaedge);
    if (filter.direction) params.set('direction', filter.direction);
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export function kgNodeHref(id: string, filter: NeighbourhoodFilter = NO_FILTER): string {
  return `/kg/${encodeNodeIdSegment(id)}${filterQueryString(filter)}`;
}

export function sameFilter(a: NeighbourhoodFilter, b: NeighbourhoodFilter): boolean {
  return a.metaedge === b.metaedge && a.direction === b.direction;
}
