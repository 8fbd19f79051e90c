import type { Core } from 'cytoscape';
import { GRAPH_COLORS } from './colors';

/** A file name safe on every OS, ending in .png. */
export function pngFileName(base: string): string {
  const safe = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  return `${safe || 'graph'}.png`;
}

/** Downloads the whole graph (not just the viewport) as a 2x PNG on a white background. */
export function exportGraphPng(cy: Core, baseName: string): void {
  const blob = cy.png({ output: 'blob', full: true, scale: 2, bg: GRAPH_COLORS.background });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = pngFileName(baseName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 5_000);
}
