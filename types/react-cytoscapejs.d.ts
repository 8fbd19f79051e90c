// react-cytoscapejs 2.x ships no types; this covers the props Hopscope uses.
declare module 'react-cytoscapejs' {
  import type { Component, CSSProperties } from 'react';
  import type { Core, ElementDefinition, LayoutOptions, Position, StylesheetJson } from 'cytoscape';

  export interface CytoscapeComponentProps {
    id?: string;
    className?: string;
    style?: CSSProperties;
    elements: ElementDefinition[];
    stylesheet?: StylesheetJson;
    layout?: LayoutOptions;
    pan?: Position;
    zoom?: number;
    panningEnabled?: boolean;
    userPanningEnabled?: boolean;
    minZoom?: number;
    maxZoom?: number;
    zoomingEnabled?: boolean;
    userZoomingEnabled?: boolean;
    boxSelectionEnabled?: boolean;
    autoungrabify?: boolean;
    autolock?: boolean;
    autounselectify?: boolean;
    /** Called with the Cytoscape instance after mount and after every update. */
    cy?: (cy: Core) => void;
    headless?: boolean;
    styleEnabled?: boolean;
    hideEdgesOnViewport?: boolean;
    textureOnViewport?: boolean;
    motionBlur?: boolean;
    motionBlurOpacity?: number;
    wheelSensitivity?: number;
    pixelRatio?: number | 'auto';
  }

  export default class CytoscapeComponent extends Component<CytoscapeComponentProps> {
    static normalizeElements(elements: ElementDefinition[] | { nodes?: ElementDefinition[]; edges?: ElementDefinition[] }): ElementDefinition[];
  }
}
