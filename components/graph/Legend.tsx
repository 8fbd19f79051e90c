import { cn } from '@/components/ui/cn';
import type { CSSProperties } from 'react';
import { kindColor } from './colors';

export interface LegendExtra {
  label: string;
  /** CSS for the swatch (e.g. a border for the focus ring, a line for an edge class). */
  swatch: CSSProperties;
}

export interface GraphLegendProps {
  /** Node kinds to explain, in display order. */
  kinds: readonly string[];
  /** Further entries: focus ring, edge classes, channels. */
  extras?: readonly LegendExtra[];
  className?: string;
}

/** Colour key of a graph view; reads the same named colours as the stylesheet. */
export function GraphLegend({ kinds, extras = [], className }: GraphLegendProps) {
  if (kinds.length === 0 && extras.length === 0) return null;
  return (
    <ul aria-label="Legend" className={cn('flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700', className)}>
      {kinds.map((kind) => (
        <li key={`kind:${kind}`} className="inline-flex items-center gap-1.5">
          <span aria-hidden className="inline-block size-3 rounded-full" style={{ backgroundColor: kindColor(kind) }} />
          {kind}
        </li>
      ))}
      {extras.map((extra) => (
        <li key={`extra:${extra.label}`} className="inline-flex items-center gap-1.5">
          <span aria-hidden className="inline-block size-3 rounded-full" style={extra.swatch} />
          {extra.label}
        </li>
      ))}
    </ul>
  );
}
