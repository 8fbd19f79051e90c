import { queryOptions } from '@tanstack/react-query';
import { fetchJson, kgApiUrls } from '@/lib/api/client';
import type { NeighborsDto, SearchResponse } from '@/lib/api/kg-types';
import type { NeighbourhoodFilter } from './paths';

/** Neighbours drawn at most in the entity page graph. */
export const NEIGHBOUR_CAP = 60;

/** Query keys of the KG browser: every variable of a query is in its key. */
export const kgKeys = {
  all: ['kg'] as const,
  search: (q: string, kinds: readonly string[]) => ['kg', 'search', { q, kinds: [...kinds] }] as const,
  neighbours: (id: string, filter: NeighbourhoodFilter, limit: number) =>
    ['kg', 'neighbours', id, { metaedge: filter.metaedge, direction: filter.direction, limit, order: filter.metaedge ? 'degree' : 'diverse' }] as const,
};

export function searchQueryOptions(q: string, kinds: readonly string[] = []) {
  return queryOptions({
    queryKey: kgKeys.search(q, kinds),
    queryFn: ({ signal }) => fetchJson<SearchResponse>(kgApiUrls.search(q, { kinds, limit: 10 }), { signal }),
    staleTime: 5 * 60_000,
  });
}

/** Neighbours added when a node of the graph is expanded in place. */
export const EXPAND_CAP = 12;

/**
 * The neighbour request for a filter: the lib arguments the server prefetch uses too.
 * Unfiltered, relations take turns ('diverse'), so the first page shows every kind of
 * relation; one relation is shown best-connected first.
 */
export function neighbourArgs(filter: NeighbourhoodFilter, limit = NEIGHBOUR_CAP) {
  return {
    metaedges: filter.metaedge ? [filter.metaedge] : undefined,
    direction: filter.metaedge ? (filter.direction ?? undefined) : undefined,
    limit,
    order: filter.metaedge ? 'degree' : 'diverse',
  } as const;
}

export function neighboursQueryOptions(id: string, filter: NeighbourhoodFilter, limit = NEIGHBOUR_CAP) {
  return queryOptions({
    queryKey: kgKeys.neighbours(id, filter, limit),
    queryFn: ({ signal }) => fetchJson<NeighborsDto>(kgApiUrls.neighbors(id, neighbourArgs(filter, limit)), { signal }),
    staleTime: 5 * 60_000,
  });
}
