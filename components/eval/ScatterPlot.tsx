import { linearScale, niceTicks } from './chart-scales';

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

const W = 720;
const H = 300;
const M = { top: 14, right: 24, bottom: 44, left: 52 };

/** Points with labels in plain SVG: cost on x, accuracy on y. */
export function ScatterPlot({ title, points, xLabel, yLabel, formatX, formatY, yMax = 1, testId }: ScatterPlotProps) {
  // Headroom past the largest cost, so no point sits on the edge.
  const xTicks = niceTicks(Math.max(0, ...points.map((p) => p.x)) * 1.15, 5);
  const yTicks = niceTicks(yMax, 5);
  const x = linearScale([0, xTicks[xTicks.length - 1]], [M.left, W - M.right]);
  const y = linearScale([0, yTicks[yTicks.length - 1]], [H - M.bottom, M.top]);
  const titleId = `${testId ?? 'scatter'}-title`;
  return (
    <figure className="space-y-2" data-testid={testId}>
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full max-w-[720px]" role="img" aria-labelledby={titleId}>
        <title id={titleId}>{`${title}: ${yLabel} against ${xLabel}`}</title>
        {yTicks.map((t) => (
          <g key={`y${t}`}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? '#94a3b8' : '#e2e8f0'} />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-slate-500 text-[11px]">
              {formatY(t)}
            </text>
          </g>
        ))}
        {xTicks.map((t) => (
          <g key={`x${t}`}>
            <line x1={x(t)} x2={x(t)} y1={M.top} y2={H - M.bottom} stroke={t === 0 ? '#94a3b8' : '#f1f5f9'} />
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
        {points.map((p) => (
          <g key={p.key} data-testid="scatter-point" data-key={p.key} data-x={p.x} data-y={p.y}>
            <circle cx={x(p.x)} cy={y(p.y)} r={5} fill={p.color} fillOpacity={0.85} stroke="white">
              <title>{`${p.label}: ${formatY(p.y)} at ${formatX(p.x)}`}</title>
            </circle>
            <text x={x(p.x) + (x(p.x) > W * 0.7 ? -8 : 8)} y={y(p.y)} dy="0.32em" textAnchor={x(p.x) > W * 0.7 ? 'end' : 'start'} className="fill-slate-700 text-[10px]">
              {p.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="text-xs font-medium text-slate-900">{title}</figcaption>
    </figure>
  );
}
