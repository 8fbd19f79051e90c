'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { parseViewState, viewStateQuery, type RunViewState } from './view-state';

/**
 * The run page's selection (open step, graph cut, provenance selection) in the
 * URL. Updates replace the history entry (a click in the graph is not a page)
 * without a server round trip.
 */
export function useRunViewState(): [RunViewState, (patch: Partial<RunViewState>) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const state = useMemo(() => parseViewState(searchParams), [searchParams]);
  const update = useCallback(
    (patch: Partial<RunViewState>) => {
      const next = { ...parseViewState(new URLSearchParams(window.location.search)), ...patch };
      window.history.replaceState(null, '', `${pathname}${viewStateQuery(next, window.location.search)}`);
    },
    [pathname],
  );
  return [state, update];
}
