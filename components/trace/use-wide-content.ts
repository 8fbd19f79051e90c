'use client';

import { useEffect, useState, type RefObject } from 'react';

/** The attribute a horizontally scrolling container carries (SortableTable's), so a panel can tell when its content is clipped. */
export const SCROLL_X_ATTR = 'data-scroll-x';

/**
 * Whether any `[data-scroll-x]` container inside `ref` is wider than its box,
 * i.e. a table whose columns would have to scroll sideways. Re-checked as the
 * content loads (mutations) and as the panel resizes; `key` restarts it.
 */
export function useWideContent(ref: RefObject<HTMLElement | null>, key: string | number | null): boolean {
  // The measurement names the key it was taken for, so the render right after `key` changes never reads the last one's.
  const [measured, setMeasured] = useState<{ key: string | number | null; wide: boolean }>({ key, wide: false });
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const check = () => {
      const wide = [...root.querySelectorAll<HTMLElement>(`[${SCROLL_X_ATTR}]`)].some((el) => el.scrollWidth > el.clientWidth + 1);
      setMeasured((prev) => (prev.key === key && prev.wide === wide ? prev : { key, wide }));
    };
    const mutations = new MutationObserver(check);
    mutations.observe(root, { childList: true, subtree: true });
    const sizes = new ResizeObserver(check);
    sizes.observe(root);
    check();
    return () => {
      mutations.disconnect();
      sizes.disconnect();
    };
  }, [ref, key]);
  return measured.key === key && measured.wide;
}
