'use client';

import { useMemo } from 'react';
import { formatCount, formatMs } from '@/components/runs/format';
import { cn } from '@/components/ui/cn';
import type { RunView } from '@/lib/runs/view';
import type { StepTree } from './tree';
import { buildWaterfall } from './waterfall';

const BAR_COLOR: Record<string, string> = {
  running: 'bg-blue-400 animate-pulse',
  succeeded: 'bg-emerald-500',
  failed: 'bg-red-500',
  skipped: 'bg-slate-300',
  call: 'bg-violet-400',
};

/**
 * Steps and model calls on one time axis (Langfuse / Phoenix style): where the
 * time went, and the tokens each call used. Offline runs show estimated tokens,
 * marked "≈" and labelled as estimates. A row selects its step.
 */
export function TraceWaterfall({
  run,
  tree,
  selectedOrdinal,
  onSelectStep,
}: {
  run: RunView;
  tree: StepTree;
  selectedOrdinal: number | null;
  onSelectStep: (ordinal: number | null) => void;
}) {
  const waterfall = useMemo(() => buildWaterfall(run, tree), [run, tree]);
  const approx = (estimated: boolean) => (estimated ? '≈' : '');
  return (
    <div className="space-y-2" data-testid="trace-waterfall">
      <p className="text-xs text-slate-600" data-testid="waterfall-totals" data-estimated={waterfall.tokensEstimated ? 'true' : 'false'}>
        {formatMs(waterfall.spanMs)} from the first step to the last · {run.calls.length} model call{run.calls.length === 1 ? '' : 's'} ·{' '}
        {approx(waterfall.tokensEstimated)}
        {formatCount(waterfall.tokensIn)} tokens in, {approx(waterfall.tokensEstimated)}
        {formatCount(waterfall.tokensOut)} out
        {waterfall.tokensEstimated ? (
          <span className="font-medium text-amber-800"> (estimated at four characters a token: the offline engine reports no token counts)</span>
        ) : null}
      </p>
      <p aria-hidden className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_4.5rem_7.5rem] gap-2 px-1 text-[11px] font-semibold text-slate-500">
        <span>step / model call</span>
        <span>time from the start</span>
        <span className="text-right">duration</span>
        <span className="text-right">tokens in / out</span>
      </p>
      <ol aria-label="Timeline of steps and model calls" className="text-xs">
        {waterfall.rows.map((r) => (
          <li key={`${r.type}:${r.id}`}>
            <button
              type="button"
              onClick={() => onSelectStep(r.ordinal)}
              className={cn(
                'grid w-full grid-cols-[minmax(0,2fr)_minmax(0,3fr)_4.5rem_7.5rem] items-center gap-2 rounded px-1 py-0.5 text-left hover:bg-slate-100',
                r.type === 'step' && r.ordinal === selectedOrdinal && 'bg-blue-50 ring-1 ring-blue-200',
              )}
              data-row-type={r.type}
            >
              <span
                className={cn('truncate', r.type === 'call' ? 'text-slate-500 italic' : 'text-slate-900')}
                style={{ paddingLeft: r.depth * 12 }}
                title={`${r.label}${r.detail ? ` (${r.detail})` : ''}`}
              >
                {r.label}
                {r.concurrentGroup !== null && (
                  <span className="ml-1 not-italic text-violet-700" title={`in flight together with the other calls marked ∥${r.concurrentGroup}`}>
                    ∥{r.concurrentGroup}
                  </span>
                )}
              </span>
              <span className="relative h-3 rounded-sm bg-slate-100" aria-hidden>
                <span
                  className={cn('absolute top-0 h-3 rounded-sm', BAR_COLOR[r.status] ?? 'bg-slate-400')}
                  style={{ left: `${r.offsetPct}%`, width: `${r.widthPct}%` }}
                />
              </span>
              <span className="text-right tabular-nums text-slate-700">{formatMs(r.ms)}</span>
              <span
                className="text-right tabular-nums text-slate-600"
                title={r.tokensEstimated ? 'estimated tokens (about four characters a token)' : 'tokens reported by the model server'}
              >
                {r.tokensIn || r.tokensOut ? `${approx(r.tokensEstimated)}${formatCount(r.tokensIn)} / ${formatCount(r.tokensOut)}` : ''}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
