'use client';

import type { Core, LayoutOptions, StylesheetJson } from 'cytoscape';
import dynamic from 'next/dynamic';
import { useCallback, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { Spinner } from '@/components/ui/Spinner';
import { cn } from '@/components/ui/cn';
import type { ActivatedElement, DrawnGraph, HoverInfo } from './CytoscapeCanvas';
import { kindColor } from './colors';
import { toCytoscapeElements, type ToElementsOptions } from './elements';
import { GraphControls } from './GraphControls';
import type { GraphLayoutName } from './layouts';
import type { GraphModel } from './model';
import { LABEL_MIN_ZOOM } from './stylesheet';

const CytoscapeCanvas = dynamic(() => import('./CytoscapeCanvas'), {
  ssr: false,
  loading: () => (
    <div className="flex h-full items-center justify-center">
      <Spinner label="Loading graph view…" />
    </div>
  ),
});

export type { ActivatedElement, HoverInfo };

export interface CytoscapeViewProps {
  model: GraphModel;
  /** A named layout (`radial`, `concentric`, `layered`, `force`) or full Cytoscape layout options. */
  layout?: GraphLayoutName | LayoutOptions;
  /** Fixed height of the canvas (px or CSS length), so that loading never shifts the page. */
  height?: number | string;
  /** Accessible name of the graph region. */
  ariaLabel: string;
  /** Called when a node or edge is clicked / tapped. */
  onActivate?: (element: ActivatedElement) => void;
  elementOptions?: ToElementsOptions;
  /** Extra stylesheet rules for this view (appended after the shared stylesheet). */
  extraStylesheet?: StylesheetJson;
  /** Show fit / zoom / PNG controls (default true). */
  controls?: boolean;
  /** Base name of the PNG download. */
  exportName?: string;
  /** Rendered below the canvas, left of the element count (e.g. a legend). */
  footer?: ReactNode;
  className?: string;
  /** Prefix of the data-testids (`${testId}`, `${testId}-count`). Default "graph". */
  testId?: string;
  /** Shown left of the controls, above the canvas (e.g. what the view shows). */
  caption?: ReactNode;
  /** Keep node labels legible after layout, centring on the nodes this selector matches ('' for the centre); see CytoscapeCanvas. */
  legibleFocus?: string;
}

/**
 * The shared graph view: a client-only Cytoscape canvas (react-cytoscapejs) with
 * the Hopscope stylesheet, a hover tooltip, fit/zoom/PNG controls and a count of
 * the elements Cytoscape actually rendered (`data-testid="graph-count"`, with
 * `data-nodes` / `data-edges`). Give it a `GraphModel`; it never fetches.
 */
export function CytoscapeView({
  model,
  layout = 'radial',
  height = 480,
  ariaLabel,
  onActivate,
  elementOptions,
  extraStylesheet,
  controls = true,
  exportName,
  footer,
  className,
  testId = 'graph',
  legibleFocus,
  caption,
}: CytoscapeViewProps) {
  const elements = useMemo(() => toCytoscapeElements(model, elementOptions), [model, elementOptions]);
  const [cy, setCy] = useState<Core | null>(null);
  const [hover, setHover] = useState<HoverInfo | null>(null);
  const [counts, setCounts] = useState<DrawnGraph | null>(null);
  const onReady = useCallback((instance: Core) => setCy(instance), []);

  return (
    <div className={cn('flex flex-col', className)}>
      {controls || caption ? (
        <div className="mb-1.5 flex items-end justify-between gap-3">
          <div className="min-w-0 flex-1">{caption}</div>
          {controls ? <GraphControls cy={cy} exportName={exportName ?? ariaLabel} /> : null}
        </div>
      ) : null}
      <div
        role="region"
        aria-label={ariaLabel}
        data-testid={testId}
        className="relative overflow-hidden rounded-md border border-slate-200 bg-white"
        style={{ height }}
      >
        <CytoscapeCanvas
          elements={elements}
          layout={layout}
          extraStylesheet={extraStylesheet}
          onReady={onReady}
          onRendered={setCounts}
          onActivate={onActivate}
          onHover={setHover}
          legibleFocus={legibleFocus}
        />
        {hover ? <GraphTooltip hover={hover} /> : null}
      </div>
      <div className="mt-2 flex min-h-6 flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="min-w-0 flex-1">{footer}</div>
        <p
          className="shrink-0 text-xs text-slate-600 tabular-nums"
          data-testid={`${testId}-count`}
          data-nodes={counts?.nodes ?? ''}
          data-edges={counts?.edges ?? ''}
          data-zoom={counts ? counts.zoom.toFixed(3) : ''}
          data-label-zoom={LABEL_MIN_ZOOM.toFixed(3)}
          aria-live="polite"
        >
          {counts ? `${counts.nodes} node${counts.nodes === 1 ? '' : 's'} · ${counts.edges} edge${counts.edges === 1 ? '' : 's'} drawn` : 'Drawing…'}
        </p>
      </div>
    </div>
  );
}

function GraphTooltip({ hover }: { hover: HoverInfo }) {
  // Keep the tooltip inside the canvas: flip it left of / above the pointer near the edges.
  const style: CSSProperties = {
    ...(hover.x > hover.width - 270 ? { right: hover.width - hover.x + 12 } : { left: hover.x + 12 }),
    ...(hover.y > hover.height - 70 ? { bottom: hover.height - hover.y + 12 } : { top: hover.y + 12 }),
  };
  return (
    <div
      role="tooltip"
      className="pointer-events-none absolute z-20 max-w-64 rounded-md border border-slate-200 bg-white px-2.5 py-1.5 text-xs shadow-md"
      style={style}
    >
      {hover.group === 'nodes' ? (
        <>
          <p className="font-semibold break-words text-slate-900">{hover.title || hover.label}</p>
          <p className="mt-0.5 inline-flex items-center gap-1.5 text-slate-600">
            <span aria-hidden className="inline-block size-2 rounded-full" style={{ backgroundColor: kindColor(hover.kind) }} />
            {hover.kind}
          </p>
        </>
      ) : (
        <p className="text-slate-800">{hover.title || 'edge'}</p>
      )}
    </div>
  );
}
