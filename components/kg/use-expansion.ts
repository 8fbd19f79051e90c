'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { expansionQueryString, parseExpansion, type NeighbourhoodExpansion } from './paths';

/**
 * The nodes expanded in place on an entity page live in the URL
 * (`?expand=…&node=…`), so a permalink or a reload restores the expanded
 * graph; each change is a history entry (Back undoes an expansion). The path
 * names the focus, so another entity page starts afresh.
 */
export function useExpansion(): [NeighbourhoodExpansion, (update: (prev: NeighbourhoodExpansion) => NeighbourhoodExpansion) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const expansion = useMemo(() => parseExpansion(searchParams), [searchParams]);
  const setExpansion = useCallback(
    (update: (prev: NeighbourhoodExpansion) => NeighbourhoodExpansion) => {
      const next = update(parseExpansion(new URLSearchParams(window.location.search)));
      window.history.pushState(null, '', `${pathname}${expansionQueryString(next, window.location.search)}`);
    },
    [pathname],
  );
  return [expansion, setExpansion];
}
