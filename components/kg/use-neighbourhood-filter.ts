'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { filterQueryString, parseNeighbourhoodFilter, type NeighbourhoodFilter } from './paths';

/**
 * The neighbourhood filter lives in the URL (`?metaedge=DaG&direction=out`), so a
 * permalink reproduces the view. Changing it pushes a history entry without a
 * server round trip (Next keeps useSearchParams in sync with pushState).
 */
export function useNeighbourhoodFilter(): [NeighbourhoodFilter, (next: NeighbourhoodFilter) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const filter = useMemo(() => parseNeighbourhoodFilter(searchParams), [searchParams]);
  const setFilter = useCallback(
    (next: NeighbourhoodFilter) => {
      const params = new URLSearchParams(searchParams.toString());
      params.delete('metaedge');
      params.delete('direction');
      const own = new URLSearchParams(filterQueryString(next));
      for (const [k, v] of own) params.set(k, v);
      const qs = params.toString();
      window.history.pushState(null, '', `${pathname}${qs ? `?${qs}` : ''}`);
    },
    [pathname, searchParams],
  );
  return [filter, setFilter];
}
