'use client';

import type { DegreeRowDto } from '@/lib/api/kg-types';
import { cn } from '@/components/ui/cn';
import { NO_FILTER, type NeighbourhoodFilter } from './paths';
import { useNeighbourhoodFilter } from './use-neighbourhood-filter';

export function isRowActive(row: Pick<DegreeRowDto, 'metaedge' | 'direction'>, filter: NeighbourhoodFilter): boolean {
  return filter.metaedge === row.metaedge && (filter.direction === null || filter.direction === row.direction);
}

/** The metaedge's description ("Disease – associates – Gene"), else its abbreviation. */
export function relationText(row: Pick<DegreeRowDto, 'metaedge' | 'description'>): string {
  return row.description?.trim() || row.metaedge;
}

/** Edges of a node per metaedge and direction; clicking a row filters the neighbourhood. */
export function DegreeTable({ rows, totalDegree }: { rows: readonly DegreeRowDto[]; totalDegree: number }) {
  const [filter, setFilter] = useNeighbourhoodFilter();
  const sorted = [...rows].sort((a, b) => b.count - a.count || a.metaedge.localeCompare(b.metaedge));

  if (sorted.length === 0) {
    return <p className="text-sm text-slate-600">This node has no edges in the loaded graph.</p>;
  }

  return (
    <table className="w-full table-fixed border-collapse text-sm" data-testid="degree-table">
      <caption className="sr-only">Edges by relation type; choose a row to show only that relation in the neighbourhood</caption>
      <thead>
        <tr className="border-b border-slate-200 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <th scope="col" className="py-2 pr-2">
            Relation
          </th>
          <th scope="col" className="w-16 py-2 pr-2">
            Dir.
          </th>
          <th scope="col" className="w-16 py-2 text-right">
            Edges
          </th>
        </tr>
      </thead>
      <tbody>
        <tr
          onClick={() => setFilter(NO_FILTER)}
          className={cn('cursor-pointer border-b border-slate-100 hover:bg-slate-50', filter.metaedge === null && 'bg-blue-50 hover:bg-blue-50')}
        >
          <td className="py-1.5 pr-2">
            <button
              type="button"
              aria-pressed={filter.metaedge === null}
              className="w-full text-left font-medium text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              All relations
            </button>
          </td>
          <td className="py-1.5 pr-2 text-slate-500">both</td>
          <td className="py-1.5 text-right font-medium text-slate-900 tabular-nums">{totalDegree.toLocaleString('en-US')}</td>
        </tr>
        {sorted.map((row) => {
          const active = isRowActive(row, filter);
          return (
            <tr
              key={`${row.metaedge}:${row.direction}`}
              data-testid="degree-row"
              data-metaedge={row.metaedge}
              data-direction={row.direction}
              data-count={row.count}
              onClick={() => setFilter(active ? NO_FILTER : { metaedge: row.metaedge, direction: row.direction })}
              className={cn('cursor-pointer border-b border-slate-100 hover:bg-slate-50', active && 'bg-blue-50 hover:bg-blue-50')}
            >
              <td className="py-1.5 pr-2">
                <button
                  type="button"
                  aria-pressed={active}
                  title={active ? 'Show all relations' : `Show only ${relationText(row)} (${row.direction})`}
                  className="w-full text-left text-slate-800 focus-visible:outline-2 focus-visible:outline-blue-600"
                >
                  <span className="block truncate">{relationText(row)}</span>
                  {relationText(row) !== row.metaedge ? <span className="font-mono text-xs text-slate-500">{row.metaedge}</span> : null}
                </button>
              </td>
              <td className="py-1.5 pr-2 text-slate-700">
                <span aria-hidden>{row.direction === 'out' ? '→ ' : '← '}</span>
                {row.direction}
              </td>
              <td className="py-1.5 text-right text-slate-900 tabular-nums">{row.count.toLocaleString('en-US')}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
