'use client';

import type { Core } from 'cytoscape';
import { Button } from '@/components/ui/Button';
import { exportGraphPng } from './export-png';

export interface GraphControlsProps {
  cy: Core | null;
  /** Base name of the downloaded PNG (no extension). */
  exportName?: string;
}

const ZOOM_STEP = 1.25;

function zoomBy(cy: Core, factor: number) {
  const level = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), cy.zoom() * factor));
  cy.zoom({ level, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
}

/** Fit / zoom / PNG export buttons for a Cytoscape instance. */
export function GraphControls({ cy, exportName = 'graph' }: GraphControlsProps) {
  const disabled = cy === null;
  return (
    <div
      role="toolbar"
      aria-label="Graph controls"
      className="flex shrink-0 flex-nowrap items-center gap-1 rounded-md border border-slate-200 bg-white/95 p-1 whitespace-nowrap shadow-sm"
    >
      <Button size="sm" variant="ghost" disabled={disabled} onClick={() => cy?.fit(undefined, 36)} title="Fit the graph to the view">
        Fit
      </Button>
      <Button size="sm" variant="ghost" disabled={disabled} onClick={() => cy && zoomBy(cy, ZOOM_STEP)} aria-label="Zoom in" title="Zoom in">
        +
      </Button>
      <Button size="sm" variant="ghost" disabled={disabled} onClick={() => cy && zoomBy(cy, 1 / ZOOM_STEP)} aria-label="Zoom out" title="Zoom out">
        −
      </Button>
      <Button size="sm" variant="ghost" disabled={disabled} onClick={() => cy && exportGraphPng(cy, exportName)} title="Download the graph as PNG">
        PNG
      </Button>
    </div>
  );
}
