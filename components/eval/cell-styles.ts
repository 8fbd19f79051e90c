import type { CellState } from '@/lib/eval/jobs/matrix';

/** How each outcome looks in the matrix and the drill-down: one place, so the legend always matches. */
export const CELL_STYLES: Record<CellState, { label: string; symbol: string; className: string }> = {
  correct: { label: 'correct', symbol: '✓', className: 'bg-emerald-600 text-white' },
  wrong: { label: 'wrong', symbol: '✗', className: 'bg-red-600 text-white' },
  abstained: { label: 'abstained', symbol: '∅', className: 'bg-amber-400 text-amber-950' },
  error: { label: 'run failed', symbol: '!', className: 'bg-slate-700 text-white' },
  unscored: { label: 'no gold answer', symbol: '?', className: 'bg-slate-300 text-slate-800' },
  running: { label: 'running', symbol: '…', className: 'animate-pulse bg-blue-200 text-blue-900' },
  pending: { label: 'not started', symbol: '·', className: 'bg-slate-100 text-slate-400' },
};
