'use client';

import { GRID_COLORS, linearScale, niceTicks, placeLabels } from './chart-scales';
import { useWidth } from './use-width';

export interface ScatterPoint {
  key: string;
  label: string;
  x: number;
  y: number;
  color: string;
}

export interface ScatterPlotProps {
  title: string;
  points: ScatterPoint[];
  xLabel: string;
  yLabel: string;
  formatX: (x: number) => string;
  formatY: (y: number) => string;
  /** Top of the y axis (1 for accuracy). */
  yMax?: number;
  testId?: string;
}

const H = 320;
const M = { top: 14, right: 24, bottom: 44, left: 52 };
const R = 5;
const LABEL = { charPx: 5.8, lineHeight: 13 };

/**
 * Points with labels in plain SVG over the width the card gives it: cost on x,
 * accuracy on y. Labels are placed so none overlap (points at the same
 * accuracy fan out with leader lines); the list under the plot names every
 * point with its values, including any whose label found no room.
 */
export function ScatterPlot({ title, points, xLabel, yLabel, formatX, formatY, yMax = 1, testId }: ScatterPlotProps) {
  const { ref, width: W } = useWidth<HTMLElement>(720);
  // Headroom past the largest cost, so no point sits on the edge.
  const xTicks = niceTicks(Math.max(0, ...points.map((p) => p.x)) * 1.15, 5);
  const yTicks = niceTicks(yMax, 5);
  const x = linearScale([0, xTicks[xTicks.length - 1]], [M.left + R + 2, W - M.right]);
  const y = linearScale([0, yTicks[yTicks.length - 1]], [H - M.bottom - R - 2, M.top]);
  const titleId = `${testId ?? 'scatter'}-title`;
  const px = points.map((p) => ({ x: x(p.x), y: y(p.y), label: p.label }));
  const labels = placeLabels(px, { bounds: { x: M.left + 2, y: 0, width: W - M.left - 2, height: H - M.bottom + 4 }, radius: R, ...LABEL });
  return (
    <figure ref={ref} className="space-y-2" data-testid={testId}>
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} className="block" role="img" aria-labelledby={titleId}>
        <title id={titleId}>{`${title}: ${yLabel} against ${xLabel}`}</title>
        {yTicks.map((t) => (
          <g key={`y${t}`}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? GRID_COLORS.zero : GRID_COLORS.line} />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-slate-500 text-[11px]">
              {formatY(t)}
            </text>
          </g>
        ))}
        {xTicks.map((t) => (
          <g key={`x${t}`}>
            <line x1={x(t)} x2={x(t)} y1={M.top} y2={H - M.bottom} stroke={t === 0 ? GRID_COLORS.zero : GRID_COLORS.faint} />
            <text x={x(t)} y={H - M.bottom + 14} textAnchor="middle" className="fill-slate-500 text-[11px]">
              {formatX(t)}
            </text>
          </g>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 6} textAnchor="middle" className="fill-slate-700 text-[12px]">
          {xLabel}
        </text>
        <text transform={`translate(14 ${(M.top + H - M.bottom) / 2}) rotate(-90)`} textAnchor="middle" className="fill-slate-700 text-[12px]">
          {yLabel}
        </text>
        {points.map((p, i) => {
          const at = labels[i];
          return (
            <g key={p.key} data-testid="scatter-point" data-key={p.key} data-x={p.x} data-y={p.y} data-labelled={at ? 'true' : 'false'}>
              {at?.moved ? (
                <line
                  x1={px[i].x}
                  y1={px[i].y}
                  x2={at.x < px[i].x ? at.x + p.label.length * LABEL.charPx : at.x}
                  y2={at.y}
                  stroke={GRID_COLORS.zero}
                  strokeWidth={0.75}
                />
              ) : null}
              <circle cx={px[i].x} cy={px[i].y} r={R} fill={p.color} fillOpacity={0.85} stroke="white">
                <title>{`${p.label}: ${formatY(p.y)} at ${formatX(p.x)}`}</title>
              </circle>
              {at ? (
                <text x={at.x} y={at.y} dy="0.32em" className="fill-slate-700 text-[10px]" data-testid="scatter-label">
                  {p.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="space-y-1 text-xs text-slate-700">
        <span className="font-medium text-slate-900">{title}</span>
        <ul className="flex flex-wrap gap-x-4 gap-y-0.5" aria-label="Points">
          {points.map((p) => (
            <li key={p.key} className="inline-flex items-center gap-1.5">
              <span aria-hidden className="inline-block size-2.5 rounded-full" style={{ backgroundColor: p.color }} />
              {p.label}: {formatY(p.y)} at {formatX(p.x)}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
