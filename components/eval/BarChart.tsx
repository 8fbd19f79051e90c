'use client';

import { barLayout, fitLabel, GRID_COLORS, linearScale, niceTicks } from './chart-scales';
import { useWidth } from './use-width';

export interface BarSeries {
  key: string;
  label: string;
  color: string;
}

export interface BarGroup {
  label: string;
  /** One value per series, in series order; null draws no bar. */
  values: (number | null)[];
}

export interface BarChartProps {
  title: string;
  description: string;
  series: BarSeries[];
  groups: BarGroup[];
  /** Top of the value axis (1 for rates). */
  max?: number;
  format: (value: number) => string;
  testId?: string;
}

const H = 280;
const M = { top: 12, right: 8, bottom: 44, left: 44 };
/** Average width of an 11px label character, for fitting group labels into their share of the axis. */
const CHAR_PX = 6.2;

/** Grouped vertical bars in plain SVG over the width the card gives it, with gridlines, value tooltips and an HTML legend. */
export function BarChart({ title, description, series, groups, max = 1, format, testId }: BarChartProps) {
  const { ref, width: W } = useWidth<HTMLElement>(720);
  const ticks = niceTicks(max, 5);
  const top = ticks[ticks.length - 1];
  const y = linearScale([0, top], [H - M.bottom, M.top]);
  const plotWidth = W - M.left - M.right;
  const layout = barLayout(groups.length, series.length, plotWidth);
  const titleId = `${testId ?? 'bar-chart'}-title`;
  return (
    <figure ref={ref} className="space-y-2" data-testid={testId}>
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} className="block" role="img" aria-labelledby={titleId}>
        <title id={titleId}>{`${title}: ${description}`}</title>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? GRID_COLORS.zero : GRID_COLORS.line} />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-slate-500 text-[11px]">
              {format(t)}
            </text>
          </g>
        ))}
        {groups.map((group, g) => (
          <g key={group.label}>
            {group.values.map((value, s) =>
              value === null ? null : (
                <rect
                  key={series[s].key}
                  data-testid="bar"
                  data-group={group.label}
                  data-series={series[s].key}
                  data-value={value}
                  x={M.left + layout.groups[g].x + s * layout.barWidth}
                  y={Math.min(y(value), y(0) - 2)}
                  width={Math.max(1, layout.barWidth - 1)}
                  // A zero still shows as a sliver on the axis, so 0% reads differently from "no score".
                  height={Math.max(value === 0 ? 2 : 0, y(0) - y(value))}
                  fill={series[s].color}
                >
                  <title>{`${group.label} · ${series[s].label}: ${format(value)}`}</title>
                </rect>
              ),
            )}
            <text
              x={M.left + layout.groups[g].centre}
              y={H - M.bottom + 16}
              textAnchor="middle"
              className="fill-slate-700 text-[11px]"
              data-testid="bar-group-label"
            >
              {fitLabel(group.label, Math.floor((plotWidth / groups.length - 8) / CHAR_PX))}
              <title>{group.label}</title>
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700">
        <span className="font-medium text-slate-900">{title}</span>
        {series.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1.5">
            <span aria-hidden className="inline-block size-2.5 rounded-sm" style={{ backgroundColor: s.color }} />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
