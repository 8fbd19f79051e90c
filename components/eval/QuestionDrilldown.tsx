'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/Button';
import { ErrorState } from '@/components/ui/ErrorState';
import { Skeleton } from '@/components/ui/Skeleton';
import { cn } from '@/components/ui/cn';
import { num } from '@/lib/eval/jobs/format';
import { GoldAnswerSchema } from '@/lib/eval/scoring';
import { QuestionOptionsSchema } from '@/lib/runs/schemas';
import { CELL_STYLES } from './cell-styles';
import { questionOptions, runHref, type EvalSource } from './queries';

const optionsOf = (v: unknown) => QuestionOptionsSchema.safeParse(v).data ?? null;

/** The gold answer as a reader expects it: "C. Metformin", "3", "BRCA1; TP53". */
export function goldText(gold: unknown): string {
  const g = GoldAnswerSchema.safeParse(gold).data;
  if (!g) return '—';
  if (g.key) return `${g.key}. ${g.text ?? ''}`.trim();
  if (typeof g.count === 'number') return String(g.count);
  if (g.list?.length) return g.list.join('; ');
  return g.aliases.length ? `${g.text} (also: ${g.aliases.slice(0, 5).join(', ')})` : g.text || '—';
}

/**
 * One question of the evaluation: text, options, gold, and every run of it
 * with its answer and cost. It opens as a panel on the right of the viewport,
 * where the reader is, over the matrix they clicked in (Escape closes it).
 */
export function QuestionDrilldown({ source, questionId, revision, onClose }: { source: EvalSource; questionId: string; revision: string; onClose(): void }) {
  const { data, error, isPending, refetch } = useQuery(questionOptions(source, questionId, revision));
  const closeRef = useRef<HTMLButtonElement>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    // Keyboard users land in the panel; Escape closes it.
    closeRef.current?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [questionId]);
  return (
    <aside
      aria-labelledby="drilldown-heading"
      className="fixed inset-y-0 right-0 z-40 flex w-full max-w-2xl flex-col border-l border-slate-300 bg-white shadow-2xl"
      data-testid="drilldown-panel"
    >
      <header className="flex min-h-11 items-center justify-between gap-3 border-b border-slate-200 px-4 py-2">
        <h2 id="drilldown-heading" className="text-sm font-semibold text-slate-900">
          Question drill-down
        </h2>
        <Button ref={closeRef} size="sm" variant="ghost" onClick={onClose} aria-label="Close the drill-down">
          Close ✕
        </Button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        {isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : error ? (
          <ErrorState title="The question could not be loaded" error={error} onRetry={() => void refetch()} />
        ) : (
          <div className="space-y-3" data-testid="question-drilldown" data-question={data.question.questionId}>
            <p className="text-sm text-slate-900">
              <span className="mr-1 text-slate-500">#{data.question.ordinal + 1}</span>
              {data.question.text}
            </p>
            {optionsOf(data.question.options) ? (
              <ol className="grid gap-x-6 gap-y-0.5 text-sm text-slate-700 sm:grid-cols-2">
                {Object.entries(optionsOf(data.question.options) ?? {}).map(([key, text]) => (
                  <li key={key}>
                    <span className="font-semibold">{key}.</span> {text}
                  </li>
                ))}
              </ol>
            ) : null}
            <p className="text-sm">
              <span className="font-semibold text-slate-900">Gold:</span> <span data-testid="drilldown-gold">{goldText(data.question.gold)}</span>
              <span className="ml-3 text-xs text-slate-500">
                {data.question.family ?? 'no family'} · {data.question.answerType}
              </span>
            </p>
            {data.buckets.length ? (
              <ul className="space-y-1 text-sm" aria-label="Attribution buckets">
                {data.buckets.map((b) => (
                  <li key={b.method} data-testid="drilldown-bucket" data-method={b.method} data-bucket={b.bucket}>
                    <span className="font-medium">{b.method}</span>: <span className="rounded bg-slate-100 px-1.5 py-0.5 font-semibold">{b.bucket}</span>{' '}
                    <span className="text-slate-600">— {b.reason}</span>
                    {b.runIds.length ? (
                      <span className="ml-1 text-xs">
                        (runs:{' '}
                        {b.runIds.map((id, i) => (
                          <span key={id}>
                            {i ? ', ' : ''}
                            <Link href={runHref(source, id)} className="text-blue-800 underline">
                              {data.runs.find((r) => r.runId === id)?.config ?? id}
                            </Link>
                          </span>
                        ))}
                        )
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <div className="overflow-x-auto">
              <table className="w-full text-xs">
                <caption className="sr-only">Runs of this question</caption>
                <thead className="border-b border-slate-200 text-slate-700">
                  <tr>
                    {['Method', 'Configuration', 'Outcome', 'Answer', 'Steps', 'Calls', 'Time (s)', 'Run'].map((h) => (
                      <th key={h} scope="col" className="px-2 py-1 text-left font-semibold">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.runs.map((r) => (
                    <tr key={`${r.method} ${r.config}`} className="border-t border-slate-100 align-top" data-testid="drilldown-run" data-state={r.state}>
                      <td className="px-2 py-1 font-medium">{r.method}</td>
                      <td className="px-2 py-1 font-mono">{r.config}</td>
                      <td className="px-2 py-1">
                        <span className={cn('rounded px-1.5 py-0.5 font-semibold', CELL_STYLES[r.state].className)}>{CELL_STYLES[r.state].label}</span>
                      </td>
                      <td className="max-w-sm px-2 py-1 break-words">{r.outcome?.error ?? r.outcome?.answer ?? ''}</td>
                      <td className="px-2 py-1 tabular-nums">{r.outcome?.steps ?? ''}</td>
                      <td className="px-2 py-1 tabular-nums">{r.outcome?.calls ?? ''}</td>
                      <td className="px-2 py-1 tabular-nums">{r.outcome ? num(r.outcome.wallMs / 1000, 2) : ''}</td>
                      <td className="px-2 py-1">
                        {r.runId ? (
                          <Link href={runHref(source, r.runId)} className="text-blue-800 underline">
                            open
                          </Link>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </div>
    </aside>
  );
}
