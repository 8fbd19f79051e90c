import { tokenTotals } from '@/lib/runs/call-tokens';
import type { CallTiming, RunView } from '@/lib/runs/view';
import { flattenTree, type StepTree } from './tree';

/**
 * The trace as a waterfall (pure): every step and model call as a bar on one
 * time axis from the run's start, with its duration and tokens. Bars are in
 * percent of the span, so the component only draws them.
 */
export interface WaterfallRow {
  type: 'step' | 'call';
  id: string;
  /** The step's ordinal (a call: its step's), for selection. */
  ordinal: number | null;
  depth: number;
  label: string;
  detail: string;
  status: string;
  offsetPct: number;
  widthPct: number;
  ms: number | null;
  tokensIn: number;
  tokensOut: number;
  tokensEstimated: boolean;
  /** A call in flight together with others: their shared group number (lib/trace/concurrency.ts); null otherwise and for steps. */
  concurrentGroup: number | null;
}

export interface Waterfall {
  rows: WaterfallRow[];
  spanMs: number;
  /** Totals over every model call. */
  tokensIn: number;
  tokensOut: number;
  tokensEstimated: boolean;
}

const MIN_WIDTH_PCT = 0.4;

export function buildWaterfall(run: Pick<RunView, 'startedAt' | 'finishedAt' | 'calls'>, tree: StepTree, now = Date.now()): Waterfall {
  const nodes = flattenTree(tree.roots);
  const t = (iso: string) => Date.parse(iso);
  const stepEnd = (s: { startedAt: string; durationMs: number | null; status: string }) =>
    t(s.startedAt) + (s.durationMs ?? (s.status === 'running' ? Math.max(0, now - t(s.startedAt)) : 0));
  const starts = [...nodes.map((n) => t(n.step.startedAt)), ...run.calls.map((c) => t(c.startedAt))];
  const start = run.startedAt ? Math.min(t(run.startedAt), ...starts) : starts.length ? Math.min(...starts) : now;
  const ends = [...nodes.map((n) => stepEnd(n.step)), ...run.calls.map((c) => t(c.startedAt) + c.latencyMs)];
  const end = Math.max(run.finishedAt ? t(run.finishedAt) : 0, ...ends, start + 1);
  const span = end - start;
  const bar = (from: number, ms: number) => {
    const offsetPct = Math.min(100, Math.max(0, ((from - start) / span) * 100));
    return { offsetPct, widthPct: Math.max(MIN_WIDTH_PCT, Math.min(100 - offsetPct, (ms / span) * 100)) };
  };

  const callsByStep = new Map<string, CallTiming[]>();
  for (const c of run.calls) if (c.stepId) callsByStep.set(c.stepId, [...(callsByStep.get(c.stepId) ?? []), c]);

  const rows: WaterfallRow[] = [];
  for (const n of nodes) {
    const s = n.step;
    const ms = s.durationMs ?? (s.status === 'running' ? Math.max(0, now - t(s.startedAt)) : null);
    rows.push({
      type: 'step',
      id: s.id,
      ordinal: s.ordinal,
      depth: n.depth,
      label: s.label,
      detail: s.kind,
      status: s.status,
      ...bar(t(s.startedAt), ms ?? 0),
      ms,
      tokensIn: s.tokensIn,
      tokensOut: s.tokensOut,
      tokensEstimated: !!s.tokensEstimated,
      concurrentGroup: null,
    });
    for (const c of callsByStep.get(s.id) ?? []) {
      rows.push({
        type: 'call',
        id: c.id,
        ordinal: s.ordinal,
        depth: n.depth + 1,
        label: `${c.role} call`,
        detail: c.cached ? 'cached' : '',
        concurrentGroup: c.concurrentGroup,
        status: 'call',
        ...bar(t(c.startedAt), c.latencyMs),
        ms: c.latencyMs,
        tokensIn: c.tokensIn,
        tokensOut: c.tokensOut,
        tokensEstimated: c.tokensEstimated,
      });
    }
  }
  return {
    rows,
    spanMs: span,
    ...tokenTotals(run.calls),
  };
}
