'use client';

// The part of the graph view that touches Cytoscape. Loaded only in the browser
// (CytoscapeView imports it with next/dynamic, ssr: false).
import type { Core, ElementDefinition, EventObject, LayoutOptions, StylesheetJson } from 'cytoscape';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import CytoscapeComponent from 'react-cytoscapejs';
import { registerGraphExtensions } from './extensions';
import { resolveLayout, type GraphLayoutName } from './layouts';
import type { CyElement } from './model';
import { GRAPH_STYLESHEET, HOVER_CLASS, LABEL_MIN_ZOOM } from './stylesheet';

registerGraphExtensions();

/** Fitting never zooms in further than this. */
const MAX_FIT_ZOOM = 1.6;
/** With `legibleFocus`, the view never starts below this zoom: labels drawn, and at 8 px or more. */
const LEGIBLE_ZOOM = Math.max(LABEL_MIN_ZOOM, 0.75);

export interface HoverInfo {
  group: 'nodes' | 'edges';
  id: string;
  label: string;
  /** Node: full name; edge: the edge label. */
  title: string;
  kind: string;
  /** Pointer position relative to the graph container. */
  x: number;
  y: number;
  /** Size of the graph container, to keep tooltips inside it. */
  width: number;
  height: number;
}

export interface DrawnGraph {
  nodes: number;
  edges: number;
  /** The zoom after layout and fitting. */
  zoom: number;
}

export interface ActivatedElement {
  group: 'nodes' | 'edges';
  id: string;
  kind: string;
  label: string;
}

export interface CytoscapeCanvasProps {
  elements: CyElement[];
  layout: GraphLayoutName | LayoutOptions;
  /** Extra rules appended after the shared stylesheet. */
  extraStylesheet?: StylesheetJson;
  onReady?: (cy: Core) => void;
  onRendered?: (drawn: DrawnGraph) => void;
  /** Never leave the view below the zoom at which node labels are drawn: zoom in on these nodes (or the centre) instead of fitting everything. */
  legibleFocus?: string;
  onActivate?: (element: ActivatedElement) => void;
  onHover?: (info: HoverInfo | null) => void;
}

function CytoscapeCanvas({ elements, layout, extraStylesheet, onReady, onRendered, onActivate, onHover, legibleFocus }: CytoscapeCanvasProps) {
  const cyRef = useRef<Core | null>(null);
  const handlers = useRef({ onActivate, onHover, onRendered });
  useEffect(() => {
    handlers.current = { onActivate, onHover, onRendered };
  });

  const stylesheet = useMemo(() => (extraStylesheet?.length ? [...GRAPH_STYLESHEET, ...extraStylesheet] : GRAPH_STYLESHEET), [extraStylesheet]);

  // Re-run the layout when the set of elements changes, not on every render.
  const elementsKey = useMemo(() => elements.map((e) => e.data.id).join('\n'), [elements]);
  const layoutKey = typeof layout === 'string' ? layout : JSON.stringify(layout, (_k, v: unknown) => (typeof v === 'function' ? String(v) : v));

  const attach = useCallback(
    (cy: Core) => {
      if (cyRef.current === cy) return;
      cyRef.current = cy;

      const describe = (event: EventObject): HoverInfo => {
        const ele = event.target;
        const isNode = ele.isNode();
        const pos = event.renderedPosition ?? { x: 0, y: 0 };
        return {
          group: isNode ? 'nodes' : 'edges',
          id: String(ele.id()),
          label: String(ele.data('label') ?? ''),
          title: String(ele.data('title') || ele.data('label') || ''),
          kind: String(ele.data('kind') ?? ''),
          x: pos.x,
          y: pos.y,
          width: cy.width(),
          height: cy.height(),
        };
      };

      cy.on('mouseover', 'node, edge', (event) => {
        event.target.addClass(HOVER_CLASS);
        const container = cy.container();
        if (container && event.target.isNode()) container.style.cursor = 'pointer';
        handlers.current.onHover?.(describe(event));
      });
      cy.on('mousemove', 'node, edge', (event) => handlers.current.onHover?.(describe(event)));
      cy.on('mouseout', 'node, edge', (event) => {
        event.target.removeClass(HOVER_CLASS);
        const container = cy.container();
        if (container) container.style.cursor = '';
        handlers.current.onHover?.(null);
      });
      cy.on('tap', 'node, edge', (event) => {
        const info = describe(event);
        handlers.current.onActivate?.({ group: info.group, id: info.id, kind: info.kind, label: info.title || info.label });
      });
      cy.on('pan zoom', () => handlers.current.onHover?.(null));
      onReady?.(cy);
    },
    [onReady],
  );

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    // react-cytoscapejs has already patched the elements (child effects run first).
    const running = cy.layout(resolveLayout(layout, cy));
    // After the layout's own stop handler (a promise settles after every listener), which may still move nodes.
    void running.promiseOn('layoutstop').then(() => {
      if (cy.destroyed()) return;
      // A handful of nodes would otherwise be blown up to the maximum zoom.
      if (cy.zoom() > MAX_FIT_ZOOM) {
        cy.zoom(MAX_FIT_ZOOM);
        cy.center();
      }
      if (legibleFocus !== undefined && cy.zoom() < LEGIBLE_ZOOM) {
        // Labels would be too small or not drawn: keep them legible and show the focus nodes first (the rest is a pan away).
        const focus = legibleFocus ? cy.$(legibleFocus) : cy.collection();
        cy.zoom(LEGIBLE_ZOOM);
        cy.center(focus.nonempty() ? focus : undefined);
      }
      handlers.current.onRendered?.({ nodes: cy.nodes().length, edges: cy.edges().length, zoom: cy.zoom() });
    });
    running.run();
    return () => {
      try {
        running.stop();
      } catch {
        // the instance may already be destroyed on unmount
      }
    };
    // layoutKey stands for layout; elementsKey for elements.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [elementsKey, layoutKey, legibleFocus]);

  return (
    <CytoscapeComponent
      elements={elements as unknown as ElementDefinition[]}
      stylesheet={stylesheet}
      cy={attach}
      minZoom={0.15}
      maxZoom={4}
      boxSelectionEnabled={false}
      autounselectify={false}
      style={{ width: '100%', height: '100%' }}
    />
  );
}

// Memoised: hover tooltips re-render the parent on every pointer move; the canvas need not follow.
export default memo(CytoscapeCanvas);
