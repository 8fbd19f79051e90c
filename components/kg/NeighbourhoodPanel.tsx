'use client';

import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo, useState, useTransition, type ReactNode } from 'react';
import { GRAPH_COLORS } from '@/components/graph/colors';
import { CytoscapeView, type ActivatedElement } from '@/components/graph/CytoscapeView';
import { kindsInModel } from '@/components/graph/elements';
import { GraphLegend } from '@/components/graph/Legend';
import { Button } from '@/components/ui/Button';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/EmptyState';
import { ErrorState } from '@/components/ui/ErrorState';
import { Spinner } from '@/components/ui/Spinner';
import type { DegreeRowDto, NeighborItemDto, NeighborsDto } from '@/lib/api/kg-types';
import { KindBadge } from './KindBadge';
import { metaedgeVerb, neighbourhoodToGraph, sortNeighbours, type FocusNode } from './neighbourhood-graph';
import { kgNodeHref, NO_FILTER, type NeighbourhoodFilter } from './paths';
import { NEIGHBOUR_CAP, neighboursQueryOptions } from './queries';
import { useNeighbourhoodFilter } from './use-neighbourhood-filter';

const GRAPH_HEIGHT = 520;
const ELEMENT_OPTIONS = { maxLabelLength: 22 } as const;
const GO_KINDS = new Set(['Biological Process', 'Cellular Component', 'Molecular Function']);

export interface NeighbourhoodPanelProps {
  focus: FocusNode;
  degreeRows: readonly DegreeRowDto[];
}

function filterValue(filter: NeighbourhoodFilter): string {
  return filter.metaedge ? `${filter.metaedge}|${filter.direction ?? ''}` : '';
}

function parseFilterValue(value: string): NeighbourhoodFilter {
  if (!value) return NO_FILTER;
  const [metaedge, direction] = value.split('|');
  return { metaedge: metaedge || null, direction: direction === 'out' || direction === 'in' ? direction : null };
}

/** The focused entity's neighbourhood: relation filter, Cytoscape graph, legend and a keyboard-friendly list. */
export function NeighbourhoodPanel({ focus, degreeRows }: NeighbourhoodPanelProps) {
  const router = useRouter();
  const [filter, setFilter] = useNeighbourhoodFilter();
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [navigating, startNavigation] = useTransition();
  const query = useQuery({ ...neighboursQueryOptions(focus.id, filter), placeholderData: keepPreviousData });

  const descriptions = useMemo(() => new Map(degreeRows.map((r) => [r.metaedge, r.description])), [degreeRows]);
  const sortedRows = useMemo(() => [...degreeRows].sort((a, b) => b.count - a.count), [degreeRows]);
  const activeRow = filter.metaedge ? degreeRows.find((r) => r.metaedge === filter.metaedge && (!filter.direction || r.direction === filter.direction)) : undefined;

  const items = useMemo(() => sortNeighbours(query.data?.edges ?? []), [query.data]);
  const model = useMemo(
    () => neighbourhoodToGraph(focus, items, { metaedgeDescriptions: descriptions, highlightId }),
    [focus, items, descriptions, highlightId],
  );
  const kinds = useMemo(() => kindsInModel(model), [model]);

  const onActivate = useCallback(
    (element: ActivatedElement) => {
      if (element.group !== 'nodes' || element.id === focus.id) return;
      setOpening(element.label);
      startNavigation(() => router.push(kgNodeHref(element.id)));
    },
    [focus.id, router],
  );

  const total = query.data?.total ?? 0;
  const shown = query.data?.edges.length ?? 0;
  const selectId = 'neighbourhood-filter';

  return (
    <section aria-labelledby="neighbourhood-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-2">
        <h2 id="neighbourhood-heading" className="text-sm font-semibold text-slate-900">
          Neighbourhood
        </h2>
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm text-slate-700">
            Show
          </label>
          <select
            id={selectId}
            value={filterValue(activeRow ? { metaedge: activeRow.metaedge, direction: activeRow.direction } : filter)}
            onChange={(e) => setFilter(parseFilterValue(e.target.value))}
            className="h-8 max-w-72 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-800 focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none"
          >
            <option value="">All relations</option>
            {sortedRows.map((row) => (
              <option key={`${row.metaedge}|${row.direction}`} value={`${row.metaedge}|${row.direction}`}>
                {`${row.description || row.metaedge} (${row.direction}, ${row.count.toLocaleString('en-US')})`}
              </option>
            ))}
          </select>
        </div>
      </header>

      <div className="px-4 py-3">
        <p className="mb-2 flex min-h-5 items-center gap-2 text-sm text-slate-700" data-testid="neighbour-summary" data-shown={query.data ? shown : ''} data-total={query.data ? total : ''}>
          {query.data ? (
            <>
              <span>
                Showing <strong className="tabular-nums">{shown.toLocaleString('en-US')}</strong> of{' '}
                <strong className="tabular-nums">{total.toLocaleString('en-US')}</strong> edges
                {activeRow ? <> for {activeRow.description || activeRow.metaedge}</> : null}
                {total > shown ? <span className="text-slate-500"> (the {NEIGHBOUR_CAP} best-connected neighbours)</span> : null}
              </span>
              {navigating ? (
                <Spinner label={`Opening ${opening ?? 'entity'}…`} className="ml-auto" />
              ) : query.isFetching ? (
                <Spinner label="Updating…" className="ml-auto" />
              ) : null}
            </>
          ) : query.isPending ? (
            <span className="text-slate-500">Loading neighbours…</span>
          ) : null}
        </p>

        <GraphArea
          query={query}
          focus={focus}
          filter={filter}
          clearFilter={() => setFilter(NO_FILTER)}
          model={model}
          onActivate={onActivate}
          legend={
            <GraphLegend
              kinds={kinds}
              extras={[{ label: `${focus.name} (focus)`, swatch: { border: `3px solid ${GRAPH_COLORS.focusBorder}`, backgroundColor: '#fff' } }]}
            />
          }
        />

        <NeighbourList items={items} descriptions={descriptions} highlightId={highlightId} onHighlight={setHighlightId} />
      </div>
    </section>
  );
}

function GraphArea(props: {
  query: UseQueryResult<NeighborsDto>;
  focus: FocusNode;
  filter: NeighbourhoodFilter;
  clearFilter: () => void;
  model: ReturnType<typeof neighbourhoodToGraph>;
  onActivate: (element: ActivatedElement) => void;
  legend: ReactNode;
}) {
  const { query, focus, filter } = props;
  const box = (children: ReactNode) => (
    <div className="flex items-center justify-center rounded-md border border-slate-200 bg-slate-50 p-4" style={{ height: GRAPH_HEIGHT }}>
      {children}
    </div>
  );

  if (query.isError && !query.data) {
    return box(<ErrorState title="Could not load the neighbourhood" error={query.error} onRetry={() => void query.refetch()} className="w-full max-w-md" />);
  }
  if (query.isPending) return box(<Spinner label="Loading neighbours…" />);
  if (query.data && query.data.edges.length === 0) {
    return box(
      <EmptyState
        className="w-full max-w-md border-0 bg-transparent"
        title={filter.metaedge ? 'No edges of this relation' : 'No neighbours in the loaded graph'}
        action={
          filter.metaedge ? (
            <Button size="sm" onClick={props.clearFilter}>
              Show all relations
            </Button>
          ) : (
            <Link href="/kg" className="text-sm font-medium text-blue-700 underline">
              Search another entity
            </Link>
          )
        }
      >
        {filter.metaedge
          ? `${focus.name} has no ${filter.metaedge} edges${filter.direction ? ` (${filter.direction})` : ''}.`
          : GO_KINDS.has(focus.kind)
            ? `${focus.kind} nodes connect to genes through Gene Ontology edges, which are not part of the loaded Hetionet subset.`
            : `${focus.name} has no edges in the loaded Hetionet subset.`}
      </EmptyState>,
    );
  }
  return (
    <CytoscapeView
      model={props.model}
      layout="radial"
      height={GRAPH_HEIGHT}
      ariaLabel={`Neighbourhood of ${focus.name}`}
      exportName={`hopscope-${focus.id}${filter.metaedge ? `-${filter.metaedge}` : ''}`}
      onActivate={props.onActivate}
      elementOptions={ELEMENT_OPTIONS}
      footer={props.legend}
      testId="neighbourhood-graph"
    />
  );
}

function NeighbourList(props: {
  items: readonly NeighborItemDto[];
  descriptions: Map<string, string>;
  highlightId: string | null;
  onHighlight: (id: string | null) => void;
}) {
  if (props.items.length === 0) return null;
  return (
    <details className="mt-4 rounded-md border border-slate-200" open>
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-800 select-none">
        Neighbours as a list ({props.items.length.toLocaleString('en-US')})
      </summary>
      <div className="max-h-72 overflow-y-auto border-t border-slate-200">
        <table className="w-full table-fixed text-sm">
          <caption className="sr-only">Neighbours shown in the graph</caption>
          <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-1.5">
                Name
              </th>
              <th scope="col" className="w-44 px-3 py-1.5">
                Kind
              </th>
              <th scope="col" className="w-40 px-3 py-1.5">
                Relation
              </th>
            </tr>
          </thead>
          <tbody>
            {props.items.map((item) => (
              <tr
                key={`${item.edge.id}`}
                onMouseEnter={() => props.onHighlight(item.neighbor.id)}
                onMouseLeave={() => props.onHighlight(null)}
                onFocus={() => props.onHighlight(item.neighbor.id)}
                onBlur={() => props.onHighlight(null)}
                className={cn('border-t border-slate-100', props.highlightId === item.neighbor.id && 'bg-amber-50')}
              >
                <td className="truncate px-3 py-1.5">
                  <Link href={kgNodeHref(item.neighbor.id)} className="font-medium text-blue-800 hover:underline" title={item.neighbor.name}>
                    {item.neighbor.name}
                  </Link>
                </td>
                <td className="px-3 py-1.5">
                  <KindBadge kind={item.neighbor.kind} />
                </td>
                <td className="truncate px-3 py-1.5 text-slate-700" title={props.descriptions.get(item.edge.metaedge) ?? item.edge.metaedge}>
                  <span aria-hidden>{item.direction === 'out' ? '→ ' : '← '}</span>
                  {metaedgeVerb(item.edge.metaedge, props.descriptions.get(item.edge.metaedge))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
