/**
 * Geometry of the evaluation plots (plain SVG): scales, ticks and the series
 * palette. Pure, so the charts only draw what these compute.
 */

/** Maps [d0, d1] onto [r0, r1] linearly; a zero-width domain maps to the middle of the range. */
export function linearScale([d0, d1]: [number, number], [r0, r1]: [number, number]): (x: number) => number {
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (x) => r0 + ((x - d0) / (d1 - d0)) * (r1 - r0);
}

/** Round tick values from 0 to at least `max` (1, 2 or 5 × a power of ten apart), about `count` of them. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = 0; t < max + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

/** Grid lines of the charts (Tailwind slate): the zero line, the value lines, and the faint lines across the other axis. */
export const GRID_COLORS = { zero: '#94a3b8', line: '#e2e8f0', faint: '#f1f5f9' } as const;

/** Distinguishable colours for series (configurations, methods), reused in order. */
export const SERIES_COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569', '#ea580c'] as const;

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length];
}

export interface BarLayout {
  /** x of each group's first bar and the group's centre. */
  groups: { x: number; centre: number }[];
  barWidth: number;
}

/**
 * Groups of `perGroup` bars across `width`, one bar width apart; bars are at
 * most `maxBar` wide (a single bar does not fill the plot) and each group is
 * centred in its share of the width.
 */
export function barLayout(groupCount: number, perGroup: number, width: number, maxBar = 48): BarLayout {
  if (!groupCount || !perGroup) return { barWidth: 0, groups: [] };
  const share = width / groupCount;
  const barWidth = Math.min(maxBar, share / (perGroup + 1));
  return {
    barWidth,
    groups: Array.from({ length: groupCount }, (_, g) => {
      const centre = (g + 0.5) * share;
      return { x: centre - (perGroup * barWidth) / 2, centre };
    }),
  };
}

/** A label cut to `maxChars` with an ellipsis (at least 3 characters kept). */
export function fitLabel(label: string, maxChars: number): string {
  const max = Math.max(4, maxChars);
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

export interface LabelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedLabel {
  /** Where the label's text starts (left edge) and its vertical centre. */
  x: number;
  y: number;
  /** Whether it was moved away from its point (draw a leader line). */
  moved: boolean;
}

const overlaps = (a: LabelBox, b: LabelBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Places a label beside each point (pixel coordinates) so no two labels and no
 * label and point overlap: right of the point, else left, else moved up or down
 * a line at a time (with a leader line). A label that finds no free place
 * within `bounds` is null, and the plot's legend names it instead. Greedy,
 * top to bottom, so crowded rows (many cells at 0 %) fan out instead of piling.
 */
export function placeLabels(
  points: readonly { x: number; y: number; label: string }[],
  opts: { bounds: LabelBox; charPx: number; lineHeight: number; radius: number; maxShift?: number },
): (PlacedLabel | null)[] {
  const { bounds, charPx, lineHeight, radius, maxShift = 6 } = opts;
  const inside = (b: LabelBox) => b.x >= bounds.x && b.y >= bounds.y && b.x + b.width <= bounds.x + bounds.width && b.y + b.height <= bounds.y + bounds.height;
  const taken: LabelBox[] = points.map((p) => ({ x: p.x - radius, y: p.y - radius, width: 2 * radius, height: 2 * radius }));
  const placed: (PlacedLabel | null)[] = points.map(() => null);
  const order = points.map((_, i) => i).sort((a, b) => points[a].y - points[b].y || points[a].x - points[b].x);
  const shifts = [0, ...Array.from({ length: maxShift }, (_, k) => [k + 1, -(k + 1)]).flat()];
  for (const i of order) {
    const p = points[i];
    const width = p.label.length * charPx;
    for (const shift of shifts) {
      const cy = p.y + shift * lineHeight;
      const candidates = [p.x + radius + 3, p.x - radius - 3 - width].map((x) => ({ x, y: cy - lineHeight / 2, width, height: lineHeight }));
      const free = candidates.find((box) => inside(box) && !taken.some((t) => overlaps(t, box)));
      if (free) {
        taken.push(free);
        placed[i] = { x: free.x, y: cy, moved: shift !== 0 };
        break;
      }
    }
  }
  return placed;
}
