import type { EvalSummary } from '@/lib/eval/jobs/aggregate';
import type { BarGroup, BarSeries } from './BarChart';
import { seriesColor } from './chart-scales';
import type { ScatterPoint } from './ScatterPlot';

/** What the evaluation plots show, shaped from the summary (pure). */

export const COST_METRICS = {
  calls: { label: 'model calls per question', pick: (p: EvalSummary['cost'][number]) => p.avgCalls },
  tokens: { label: 'tokens per question', pick: (p: EvalSummary['cost'][number]) => p.avgTokens },
  time: { label: 'seconds per question', pick: (p: EvalSummary['cost'][number]) => p.avgWallMs / 1000 },
} as const;
export type CostMetric = keyof typeof COST_METRICS;

/** Accuracy by method (groups) × configuration (bars). */
export function accuracyBars(summary: EvalSummary, methods: string[], configs: string[]): { series: BarSeries[]; groups: BarGroup[] } {
  const series = configs.map((config, i) => ({ key: config, label: config, color: seriesColor(i) }));
  const accuracy = new Map(summary.scores.map((s) => [`${s.method} ${s.config}`, s.accuracy]));
  const groups = methods.map((method) => ({ label: method, values: configs.map((config) => accuracy.get(`${method} ${config}`) ?? null) }));
  return { series, groups };
}

/** Family averages (groups, then Overall Avg) for every method × configuration (bars). */
export function familyBars(summary: EvalSummary): { series: BarSeries[]; groups: BarGroup[] } {
  const { columns, rows } = summary.families;
  const series = rows.map((r, i) => ({ key: `${r.method} ${r.config}`, label: `${r.method} · ${r.config}`, color: seriesColor(i) }));
  const groups = [
    ...columns.map((c) => ({ label: c.family, values: rows.map((r) => r.familyAvg[c.family] ?? null) })),
    { label: 'Overall Avg', values: rows.map((r) => r.overallAvg) },
  ];
  return { series, groups };
}

/**
 * One point per scored method × configuration, coloured by method; cells at
 * the same cost and accuracy share one point whose label names them all.
 */
export function costPoints(summary: EvalSummary, methods: string[], metric: CostMetric): ScatterPoint[] {
  const points = new Map<string, ScatterPoint>();
  for (const p of summary.cost) {
    const x = COST_METRICS[metric].pick(p);
    const at = `${x.toPrecision(6)} ${p.accuracy.toPrecision(6)}`;
    const label = `${p.method} · ${p.config}`;
    const same = points.get(at);
    if (same) same.label = `${same.label}, ${same.label.startsWith(`${p.method} ·`) ? p.config : label}`;
    else points.set(at, { key: `${p.method} ${p.config}`, label, x, y: p.accuracy, color: seriesColor(Math.max(0, methods.indexOf(p.method))) });
  }
  return [...points.values()];
}
