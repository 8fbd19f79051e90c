'use client';

import { useEffect, useRef, useState } from 'react';

/**
 * The width of the element the ref is put on, followed as it resizes, so a
 * plot draws in the pixels it really has (text stays its own size instead of
 * scaling with a fixed viewBox). `fallback` is the width before the first
 * measurement (and on the server).
 */
export function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(280, Math.floor(el.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
