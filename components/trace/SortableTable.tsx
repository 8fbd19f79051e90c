'use client';

import { useMemo, useState, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { SCROLL_X_ATTR } from './use-wide-content';

export interface Column<T> {
  key: string;
  header: string;
  /** The value sorted on (and shown when there is no render). */
  value: (row: T) => string | number | boolean | null | undefined;
  render?: (row: T) => ReactNode;
  numeric?: boolean;
  title?: string;
  /** Extra classes of the column's cells (e.g. a minimum width for a text column). */
  className?: string;
}

export interface SortableTableProps<T> {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  initialSort?: { key: string; dir: 'asc' | 'desc' };
  rowClassName?: (row: T) => string | undefined;
  testId?: string;
  /** Rows shown before a "show all" button. */
  pageSize?: number;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1; // blanks last either way
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/** The first column stays in view while a wide table scrolls sideways (it names the row). */
const STICKY_FIRST = 'sticky left-0 z-[1] shadow-[inset_-1px_0_0_#e2e8f0]';

/** A table whose column headers sort it (click or Enter); the sorted column is announced with aria-sort. The first column is sticky. */
export function SortableTable<T>({ caption, columns, rows, rowKey, initialSort, rowClassName, testId, pageSize = 50 }: SortableTableProps<T>) {
  const [sort, setSort] = useState(initialSort ?? null);
  const [all, setAll] = useState(false);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const column = columns.find((c) => c.key === sort.key);
    if (!column) return rows;
    const factor = sort.dir === 'asc' ? 1 : -1;
    return [...rows].sort((a, b) => {
      const va = column.value(a);
      const vb = column.value(b);
      if (va === null || va === undefined || vb === null || vb === undefined) return compare(va, vb);
      return factor * compare(va, vb);
    });
  }, [rows, columns, sort]);
  const shown = all ? sorted : sorted.slice(0, pageSize);
  const toggle = (key: string, numeric?: boolean) =>
    setSort((s) => (s?.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: numeric ? 'desc' : 'asc' }));

  return (
    <div className="overflow-x-auto rounded-md border border-slate-200" data-testid={testId} {...{ [SCROLL_X_ATTR]: '' }}>
      <table className="w-full text-left text-xs">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map((c, ci) => {
              const active = sort?.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                  className={cn('px-2 py-1.5 font-semibold whitespace-nowrap', c.numeric && 'text-right', ci === 0 && `${STICKY_FIRST} bg-slate-50`)}
                  title={c.title}
                >
                  <button
                    type="button"
                    onClick={() => toggle(c.key, c.numeric)}
                    className="inline-flex items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
                  >
                    {c.header}
                    <span aria-hidden className={cn('text-[10px]', active ? 'text-slate-900' : 'text-slate-400')}>
                      {active ? (sort!.dir === 'asc' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {shown.map((row, i) => (
            <tr key={rowKey(row, i)} className={cn('border-t border-slate-100 align-top', rowClassName?.(row))}>
              {columns.map((c, ci) => {
                const v = c.value(row);
                return (
                  <td
                    key={c.key}
                    className={cn('px-2 py-1', c.numeric && 'text-right whitespace-nowrap tabular-nums', c.className, ci === 0 && `${STICKY_FIRST} bg-white`)}
                  >
                    {c.render ? c.render(row) : v === null || v === undefined ? '—' : typeof v === 'number' ? formatNumber(v) : String(v)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {sorted.length > shown.length ? (
        <div className="border-t border-slate-100 px-2 py-1.5">
          <button type="button" className="text-xs font-medium text-blue-800 underline" onClick={() => setAll(true)}>
            Show all {sorted.length} rows
          </button>
        </div>
      ) : null}
    </div>
  );
}

export function formatNumber(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(3);
}
