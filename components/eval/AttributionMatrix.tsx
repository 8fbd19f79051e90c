'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Button } from '@/components/ui/Button';
import { ErrorState } from '@/components/ui/ErrorState';
import { Skeleton } from '@/components/ui/Skeleton';
import { cn } from '@/components/ui/cn';
import { CELL_STATES } from '@/lib/eval/jobs/matrix';
import { CELL_STYLES } from './cell-styles';
import { matrixOptions, runHref, type EvalSource } from './queries';

export const MATRIX_PAGE_SIZE = 25;

interface AttributionMatrixProps {
  source: EvalSource;
  /** The job's progress revision (see jobRevision): the matrix reloads when it moves. */
  revision: string;
  page: number;
  selectedQuestion: string | null;
  onPage(page: number): void;
  onSelectQuestion(questionId: string): void;
}

/** Questions × (method, configuration): each cell is one run's outcome and opens that run; a question opens its drill-down. */
export function AttributionMatrix({ source, revision, page, selectedQuestion, onPage, onSelectQuestion }: AttributionMatrixProps) {
  const { data, error, isPending, refetch } = useQuery(matrixOptions(source, page * MATRIX_PAGE_SIZE, MATRIX_PAGE_SIZE, revision));
  if (isPending) return <Skeleton className="h-48 w-full" />;
  if (error) return <ErrorState title="The matrix could not be loaded" error={error} onRetry={() => void refetch()} />;
  const methods = [...new Set(data.columns.map((c) => c.method))];
  const pages = Math.max(1, Math.ceil(data.total / MATRIX_PAGE_SIZE));
  const attributable = data.rows.some((r) => r.buckets.length > 0);
  return (
    <div className="space-y-3">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
        {CELL_STATES.map((state) => (
          <li key={state} className="inline-flex items-center gap-1.5">
            <span aria-hidden className={cn('inline-flex size-4 items-center justify-center rounded-sm text-[10px] font-bold', CELL_STYLES[state].className)}>
              {CELL_STYLES[state].symbol}
            </span>
            {CELL_STYLES[state].label}
          </li>
        ))}
      </ul>
      <div className="overflow-x-auto">
        <table className="text-xs" data-testid="attribution-matrix">
          <caption className="sr-only">Outcome of every run, by question and configuration</caption>
          <thead className="text-slate-700">
            <tr>
              <th scope="col" rowSpan={2} className="px-2 py-1 text-left align-bottom font-semibold">
                Question
              </th>
              {methods.map((m) => (
                <th
                  key={m}
                  scope="colgroup"
                  colSpan={data.columns.filter((c) => c.method === m).length}
                  className="border-l border-slate-200 px-2 py-1 text-center font-semibold"
                >
                  {m}
                </th>
              ))}
              {attributable ? (
                <th scope="colgroup" colSpan={methods.length} className="border-l border-slate-200 px-2 py-1 text-center font-semibold">
                  X-R2 bucket
                </th>
              ) : null}
            </tr>
            <tr>
              {data.columns.map((c, i) => (
                <th
                  key={`${c.method} ${c.config}`}
                  scope="col"
                  className={cn(
                    'px-1 py-1 text-center font-mono font-normal whitespace-nowrap',
                    (i === 0 || data.columns[i - 1].method !== c.method) && 'border-l border-slate-200',
                  )}
                >
                  {c.config}
                </th>
              ))}
              {attributable
                ? methods.map((m, i) => (
                    <th key={`bucket ${m}`} scope="col" className={cn('px-1 py-1 text-center font-normal', i === 0 && 'border-l border-slate-200')}>
                      {m}
                    </th>
                  ))
                : null}
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row) => (
              <tr
                key={row.questionId}
                data-testid="matrix-row"
                data-question={row.questionId}
                className={cn('border-t border-slate-100', selectedQuestion === row.questionId && 'bg-blue-50')}
              >
                <th scope="row" className="max-w-md px-2 py-1 text-left font-normal">
                  <button
                    type="button"
                    onClick={() => onSelectQuestion(row.questionId)}
                    aria-pressed={selectedQuestion === row.questionId}
                    className="line-clamp-2 text-left text-slate-800 hover:text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
                    title={row.text}
                  >
                    <span className="mr-1 text-slate-500">#{row.ordinal + 1}</span>
                    {row.text}
                  </button>
                  {row.family ? (
                    <span className="text-[11px] text-slate-500">
                      {row.family} · {row.answerType}
                    </span>
                  ) : null}
                </th>
                {row.cells.map((cell, i) => {
                  const column = data.columns[i];
                  const style = CELL_STYLES[cell.state];
                  const label = `${column.method} ${column.config}: ${style.label}`;
                  const box = cn('inline-flex size-6 items-center justify-center rounded text-[11px] font-bold', style.className);
                  return (
                    <td
                      key={`${column.method} ${column.config}`}
                      className={cn('px-1 py-1 text-center', (i === 0 || data.columns[i - 1].method !== column.method) && 'border-l border-slate-200')}
                    >
                      {cell.runId ? (
                        <Link
                          href={runHref(source, cell.runId)}
                          data-testid="matrix-cell"
                          data-state={cell.state}
                          data-run={cell.runId}
                          aria-label={`${label} — open the run`}
                          title={`${label} — open the run`}
                          className={cn(box, 'hover:ring-2 hover:ring-blue-400 focus-visible:outline-2 focus-visible:outline-blue-600')}
                        >
                          {style.symbol}
                        </Link>
                      ) : (
                        <span data-testid="matrix-cell" data-state={cell.state} aria-label={label} title={label} className={box}>
                          {style.symbol}
                        </span>
                      )}
                    </td>
                  );
                })}
                {row.buckets.map((b, i) => (
                  <td key={`bucket ${b.method}`} className={cn('px-1 py-1 text-center whitespace-nowrap', i === 0 && 'border-l border-slate-200')}>
                    <span
                      data-testid="matrix-bucket"
                      data-method={b.method}
                      data-bucket={b.bucket}
                      title={`${b.method}: ${b.reason}`}
                      className={cn(
                        'rounded px-1.5 py-0.5 text-[11px]',
                        b.bucket === 'unresolved' ? 'text-slate-500' : 'bg-slate-100 font-medium text-slate-900',
                      )}
                    >
                      {b.bucket}
                    </span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label="Matrix pages" className="flex items-center gap-2 text-sm text-slate-700">
          <Button size="sm" onClick={() => onPage(page - 1)} disabled={page === 0}>
            Previous
          </Button>
          <span>
            Questions {page * MATRIX_PAGE_SIZE + 1}–{Math.min(data.total, (page + 1) * MATRIX_PAGE_SIZE)} of {data.total}
          </span>
          <Button size="sm" onClick={() => onPage(page + 1)} disabled={page + 1 >= pages}>
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
