'use client';

import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';

export interface ResizableSplitProps {
  start: ReactNode;
  end: ReactNode;
  /** Width of the end pane as a fraction of the whole (0–1). */
  initialEnd?: number;
  minEnd?: number;
  maxEnd?: number;
  /** Accessible name of the drag handle. */
  label: string;
  className?: string;
  /** The end pane alone at full width, above the start pane (for content too wide to sit beside it). */
  endFullWidth?: boolean;
}

const STEP = 0.04;

/**
 * Two panes side by side with a drag handle between them (pointer or arrow
 * keys); the end pane keeps its share of the width. Below the `lg` breakpoint,
 * or with `endFullWidth`, the panes stack.
 */
export function ResizableSplit({ start, end, initialEnd = 0.6, minEnd = 0.3, maxEnd = 0.8, label, className, endFullWidth = false }: ResizableSplitProps) {
  const [share, setShare] = useState(initialEnd);
  const box = useRef<HTMLDivElement>(null);
  const clamp = useCallback((v: number) => Math.min(maxEnd, Math.max(minEnd, v)), [minEnd, maxEnd]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) => {
      const rect = box.current?.getBoundingClientRect();
      if (rect && rect.width > 0) setShare(clamp((rect.right - e.clientX) / rect.width));
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    setShare((s) => clamp(s + (event.key === 'ArrowLeft' ? STEP : -STEP)));
  };

  return (
    // Full width keeps the same elements (in reverse order), so the panes' state survives the switch.
    <div
      ref={box}
      className={`flex gap-3 ${endFullWidth ? 'flex-col-reverse' : 'flex-col lg:flex-row lg:gap-0'} ${className ?? ''}`}
      style={{ ['--end-share' as string]: `${share * 100}%` }}
    >
      <div className="min-w-0 lg:flex-1">{start}</div>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuemin={Math.round(minEnd * 100)}
        aria-valuemax={Math.round(maxEnd * 100)}
        aria-valuenow={Math.round(share * 100)}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        className={`hidden w-3 shrink-0 cursor-col-resize touch-none items-center justify-center rounded outline-none hover:bg-slate-200 focus-visible:bg-blue-100 ${endFullWidth ? '' : 'lg:flex'}`}
        data-testid="split-handle"
      >
        <span aria-hidden className="h-10 w-1 rounded-full bg-slate-300" />
      </div>
      <div className={`min-w-0 ${endFullWidth ? '' : 'lg:w-[var(--end-share)] lg:shrink-0'}`}>{end}</div>
    </div>
  );
}
