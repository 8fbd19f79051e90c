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
    ['kg', 'neighbours', id, { metaedge: filter.metaedge, direction: filter.direction, limit }] as const,
};

export function searchQueryOptions(q: string, kinds: readonly string[] = []) {
  return queryOptions({
    queryKey: kgKeys.search(q, kinds),
    queryFn: ({ signal }) => fetchJson<SearchResponse>(kgApiUrls.search(q, { kinds, limit: 10 }), { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The neighbour request for a filter: the lib arguments the server prefetch uses too. */
export function neighbourArgs(filter: NeighbourhoodFilter, limit = NEIGHBOUR_CAP) {
  return {
    metaedges: filter.metaedge ? [filter.metaedge] : undefined,
    direction: filter.metaedge ? (filter.direction ?? undefined) : undefined,
    limit,
  } as const;
}

export function neighboursQueryOptions(id: string, filter: NeighbourhoodFilter, limit = NEIGHBOUR_CAP) {
  return queryOptions({
    queryKey: kgKeys.neighbours(id, filter, limit),
    queryFn: ({ signal }) => fetchJson<NeighborsDto>(kgApiUrls.neighbors(id, neighbourArgs(filter, limit)), { signal }),
    staleTime: 5 * 60_000,
  });
}
