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
