import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';

let registered = false;

/** Registers the Cytoscape layout extensions once per page (client only: the canvas imports this). */
export function registerGraphExtensions(): void {
  if (registered) return;
  cytoscape.use(dagre);
  registered = true;
}
