'use client';

import { keepPreviousData, useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { LayoutOptions } from 'cytoscape';
import Link from 'next/link';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { GRAPH_COLORS } from '@/components/graph/colors';
import { CytoscapeView, type ActivatedElement } from '@/components/graph/CytoscapeView';
import { kindsInModel } from '@/components/graph/elements';
import { GraphLegend } from '@/components/graph/Legend';
import { EXPANDED_STYLES } from '@/components/graph/view-styles';
import type { GraphModel } from '@/components/graph/model';
import { Button } from '@/components/ui/Button';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/EmptyState';
import { ErrorState } from '@/components/ui/ErrorState';
import { Spinner } from '@/components/ui/Spinner';
import type { DegreeRowDto, NeighborItemDto, NeighborsDto } from '@/lib/api/kg-types';
import { KindBadge } from './KindBadge';
import { expandedLayout } from './expand-layout';
import { expandNeighbourhood, metaedgeVerb, sortNeighbours, type Expansion, type FocusNode } from './neighbourhood-graph';
import { kgNodeHref, MAX_EXPANSIONS, NO_FILTER, type NeighbourhoodFilter } from './paths';
import { EXPAND_CAP, NEIGHBOUR_CAP, neighboursQueryOptions } from './queries';
import { useExpansion } from './use-expansion';
import { useNeighbourhoodFilter } from './use-neighbourhood-filter';

const GRAPH_HEIGHT = 520;
const ELEMENT_OPTIONS = { maxLabelLength: 22 } as const;
const GO_KINDS = new Set(['Biological Process', 'Cellular Component', 'Molecular Function']);
/** Expanded nodes get a double ring, so the reader sees which ones have been opened up. */
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

/**
 * The focused entity's neighbourhood: relation filter, Cytoscape graph, legend and a keyboard-friendly list.
 * Clicking a node expands its neighbours in place (like Neo4j Browser); opening its page is an explicit action.
 */
export function NeighbourhoodPanel({ focus, degreeRows }: NeighbourhoodPanelProps) {
  const [filter, setFilter] = useNeighbourhoodFilter();
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const [expansion, setExpansion] = useExpansion();
  const expandedIds = expansion.ids;
  const selectedId = expansion.selected;
  const query = useQuery({ ...neighboursQueryOptions(focus.id, filter), placeholderData: keepPreviousData });
  const expansionQueries = useQueries({ queries: expandedIds.map((id) => neighboursQueryOptions(id, NO_FILTER, EXPAND_CAP)) });

  const descriptions = useMemo(() => new Map(degreeRows.map((r) => [r.metaedge, r.description])), [degreeRows]);
  const sortedRows = useMemo(() => [...degreeRows].sort((a, b) => b.count - a.count), [degreeRows]);
  const activeRow = filter.metaedge
    ? degreeRows.find((r) => r.metaedge === filter.metaedge && (!filter.direction || r.direction === filter.direction))
    : undefined;

  const items = useMemo(() => sortNeighbours(query.data?.edges ?? []), [query.data]);
  // A key that changes only when an expansion's data arrives or changes, so the graph is not rebuilt on every render.
  const expansionKey = expansionQueries.map((q, i) => `${expandedIds[i]}@${q.dataUpdatedAt}`).join(' ');
  const expansions: Expansion[] = useMemo(
    () => expandedIds.flatMap((id, i) => (expansionQueries[i]?.data ? [{ id, items: expansionQueries[i].data.edges }] : [])),
    // expansionKey stands for expandedIds and the query results.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [expansionKey],
  );
  const graph = useMemo(
    () => expandNeighbourhood(focus, items, expansions, { metaedgeDescriptions: descriptions, highlightId, selectedId }),
    [focus, items, expansions, descriptions, highlightId, selectedId],
  );
  const { model, parentOf } = graph;
  const layout = useMemo(() => expandedLayout(model, parentOf, focus.id), [model, parentOf, focus.id]);
  const kinds = useMemo(() => kindsInModel(model), [model]);
  const nodeById = useMemo(() => new Map(model.nodes.map((n) => [n.id, n])), [model]);

  const onActivate = useCallback(
    (element: ActivatedElement) => {
      if (element.group !== 'nodes') return;
      setExpansion(({ ids }) => {
        if (element.id === focus.id) return { ids, selected: null };
        // Past the cap the node is selected but not expanded (the URL keeps at most MAX_EXPANSIONS).
        return { ids: ids.includes(element.id) || ids.length >= MAX_EXPANSIONS ? ids : [...ids, element.id], selected: element.id };
      });
    },
    [focus.id, setExpansion],
  );
  const collapse = useCallback((id: string) => setExpansion(({ ids, selected }) => ({ ids: ids.filter((x) => x !== id), selected })), [setExpansion]);
  const reset = useCallback(() => setExpansion(() => ({ ids: [], selected: null })), [setExpansion]);

  const selected = selectedId ? nodeById.get(selectedId) : undefined;
  const selectedIndex = selectedId ? expandedIds.indexOf(selectedId) : -1;
  const selectedQuery = selectedIndex >= 0 ? expansionQueries[selectedIndex] : undefined;
  const expanding = expansionQueries.some((q) => q.isFetching);

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
        <p
          className="mb-2 flex min-h-5 items-center gap-2 text-sm text-slate-700"
          data-testid="neighbour-summary"
          data-shown={query.data ? shown : ''}
          data-total={query.data ? total : ''}
        >
          {query.data ? (
            <>
              <span>
                Showing <strong className="tabular-nums">{shown.toLocaleString('en-US')}</strong> of{' '}
                <strong className="tabular-nums">{total.toLocaleString('en-US')}</strong> edges
                {activeRow ? <> for {activeRow.description || activeRow.metaedge}</> : null}
                {total > shown ? (
                  <span className="text-slate-500">
                    {' '}
                    ({activeRow ? `the ${NEIGHBOUR_CAP} best-connected neighbours` : 'every relation in turn, best-connected first'})
                  </span>
                ) : null}
              </span>
              {graph.added.nodes ? (
                <span className="text-slate-600" data-testid="expansion-summary" data-added-nodes={graph.added.nodes}>
                  · +{graph.added.nodes} from {expandedIds.length} expansion{expandedIds.length === 1 ? '' : 's'}
                </span>
              ) : null}
              {query.isFetching || expanding ? <Spinner label={expanding ? 'Expanding…' : 'Updating…'} className="ml-auto" /> : null}
            </>
          ) : query.isPending ? (
            <span className="text-slate-500">Loading neighbours…</span>
          ) : null}
        </p>

        <SelectionBar
          selected={selected ? { id: selected.id, name: selected.title ?? selected.label, kind: selected.kind } : null}
          expanded={!!selectedId && expandedIds.includes(selectedId)}
          shown={selectedQuery?.data?.edges.length ?? null}
          total={selectedQuery?.data?.total ?? null}
          loading={!!selectedQuery?.isPending}
          anyExpanded={expandedIds.length > 0}
          onExpand={() => selected && onActivate({ group: 'nodes', id: selected.id, kind: selected.kind, label: selected.label })}
          onCollapse={() => selectedId && collapse(selectedId)}
          onReset={reset}
        />

        <GraphArea
          query={query}
          focus={focus}
          filter={filter}
          clearFilter={() => setFilter(NO_FILTER)}
          model={model}
          layout={layout}
          onActivate={onActivate}
          legend={
            <GraphLegend
              kinds={kinds}
              extras={[
                { label: `${focus.name} (focus)`, swatch: { border: `3px solid ${GRAPH_COLORS.focusBorder}`, backgroundColor: GRAPH_COLORS.background } },
              ]}
            />
          }
        />

        <NeighbourList items={items} descriptions={descriptions} highlightId={highlightId} onHighlight={setHighlightId} />
      </div>
    </section>
  );
}

/** What the clicked node is, what expanding it added, and the explicit actions: collapse, open its page, reset. One line, so the graph never moves. */
function SelectionBar(props: {
  selected: FocusNode | null;
  expanded: boolean;
  shown: number | null;
  total: number | null;
  loading: boolean;
  anyExpanded: boolean;
  onExpand: () => void;
  onCollapse: () => void;
  onReset: () => void;
}) {
  const { selected } = props;
  return (
    <div
      className="mb-2 flex h-11 items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 text-sm"
      data-testid="expansion-bar"
      data-selected={selected?.id ?? ''}
    >
      {selected ? (
        <>
          <span className="max-w-56 truncate font-medium text-slate-900" title={selected.name}>
            {selected.name}
          </span>
          <KindBadge kind={selected.kind} className="shrink-0" />
          <span className="min-w-0 truncate text-slate-600" data-testid="expansion-status">
            {!props.expanded
              ? 'not expanded'
              : props.loading
                ? 'expanding…'
                : props.total !== null
                  ? `expanded: ${props.shown} of ${props.total.toLocaleString('en-US')} neighbours`
                  : 'expanded'}
          </span>
          <span className="ml-auto flex shrink-0 items-center gap-1">
            {props.expanded ? (
              <Button size="sm" variant="ghost" onClick={props.onCollapse}>
                Collapse
              </Button>
            ) : (
              <Button size="sm" variant="ghost" onClick={props.onExpand}>
                Expand
              </Button>
            )}
            <Link
              href={kgNodeHref(selected.id)}
              className="inline-flex h-8 items-center rounded-md border border-blue-700 bg-blue-700 px-2.5 text-xs font-medium whitespace-nowrap text-white hover:bg-blue-800"
              data-testid="open-entity"
              aria-label={`Open the page of ${selected.name}`}
            >
              Open page →
            </Link>
          </span>
        </>
      ) : (
        <span className="truncate text-slate-600">Click a node to expand its neighbours here; its page opens from this bar.</span>
      )}
      {props.anyExpanded ? (
        <Button size="sm" variant="ghost" onClick={props.onReset} className={cn('shrink-0', !selected && 'ml-auto')} data-testid="expansion-reset">
          Reset
        </Button>
      ) : null}
    </div>
  );
}

function GraphArea(props: {
  query: UseQueryResult<NeighborsDto>;
  focus: FocusNode;
  filter: NeighbourhoodFilter;
  clearFilter: () => void;
  model: GraphModel;
  layout: LayoutOptions;
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
      layout={props.layout}
      extraStylesheet={EXPANDED_STYLES}
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
