import { NodeIdSchema } from '@/lib/api/kg-schemas';

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

/** Nodes expanded in place on an entity page, and the one selected: `?expand=<id>&expand=<id>&node=<id>`, so a permalink restores the graph. */
export interface NeighbourhoodExpansion {
  ids: string[];
  selected: string | null;
}

/** At most this many expansions are read from a URL (each is one neighbours query). */
export const MAX_EXPANSIONS = 24;

const nodeIdOrNull = (v: string | null): string | null => {
  if (v === null) return null;
  const parsed = NodeIdSchema.safeParse(v);
  return parsed.success ? parsed.data : null;
};

/** Reads the expansion from the query string; ids that cannot be node ids are dropped. */
export function parseExpansion(params: { getAll(name: string): string[]; get(name: string): string | null }): NeighbourhoodExpansion {
  const ids = [...new Set(params.getAll('expand').flatMap((v) => nodeIdOrNull(v) ?? []))].slice(0, MAX_EXPANSIONS);
  return { ids, selected: nodeIdOrNull(params.get('node')) };
}

/** The query string of `base` with the expansion's parameters replaced. */
export function expansionQueryString(expansion: NeighbourhoodExpansion, base: string): string {
  const params = new URLSearchParams(base);
  params.delete('expand');
  params.delete('node');
  for (const id of expansion.ids) params.append('expand', id);
  if (expansion.selected) params.set('node', expansion.selected);
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}
