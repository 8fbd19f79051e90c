'use client';

import { useCallback, useMemo, useState } from 'react';
import { CHANNEL_COLORS, EDGE_COLORS, GRAPH_COLORS } from '@/components/graph/colors';
import { CytoscapeView, type ActivatedElement } from '@/components/graph/CytoscapeView';
import { kindsInModel } from '@/components/graph/elements';
import { concentricLayout, type GraphLayoutName } from '@/components/graph/layouts';
import { GraphLegend, type LegendExtra } from '@/components/graph/Legend';
import { RUN_GRAPH_STYLES } from '@/components/graph/view-styles';
import { EmptyState } from '@/components/ui/EmptyState';
import { Spinner } from '@/components/ui/Spinner';
import { filterableSteps, flattenTree, type StepTree } from '@/components/trace/tree';
import type { RunView } from '@/lib/runs/view';
import { graphInputOf, runToGraph, type RunGraph } from './evidence-graph';
import { AGGREGATE_PREFIX, aggregate, answerSubgraph, citedEdgeIds, defaultScope } from './graph-focus';
import type { GraphScope, Selection } from './view-state';

// Fetch the Cytoscape chunk while the page hydrates rather than after (the graph is the page's slowest part).
if (typeof window !== 'undefined') void import('@/components/graph/CytoscapeCanvas');

/** The canvas fills what the first screen leaves below the header (the answer and its evidence sit beside it). */
const GRAPH_HEIGHT = 'clamp(320px, calc(100vh - 400px), 560px)';
const EMPTY_HEIGHT = 240;
const ELEMENT_OPTIONS = { maxLabelLength: 24, alwaysLabelEdgesUpTo: 16 } as const;

const LAYOUTS = [
  { value: 'dagre', label: 'Layered, hop by hop' },
  { value: 'rings', label: 'Rings by hop from the seeds' },
  { value: 'force', label: 'Force-directed' },
] as const;
type LayoutChoice = (typeof LAYOUTS)[number]['value'];

const ringsLayout = concentricLayout({ minNodeSpacing: 36 });
/** Where the view centres when the whole graph cannot be drawn at a legible zoom. */
const LEGIBLE_FOCUS = 'node.seed, node.answer';

export interface RunGraphPanelProps {
  run: RunView;
  tree: StepTree;
  /** The graph's scope from the URL (null: picked from the run). */
  scope: GraphScope | null;
  asOf: number | null;
  /** Show only the chosen step's own evidence rather than everything up to it. */
  only: boolean;
  onScope: (scope: GraphScope, asOf: number | null, only: boolean) => void;
  selection: Selection | null;
  onSelect: (selection: Selection | null) => void;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function legendExtras(graph: RunGraph, opts: { seeds: boolean; answer: boolean }): LegendExtra[] {
  const extras: LegendExtra[] = [];
  if (opts.seeds)
    extras.push({
      label: 'seed (linked in the question)',
      swatch: { border: `3px solid ${GRAPH_COLORS.seedBorder}`, backgroundColor: GRAPH_COLORS.background },
    });
  if (opts.answer) extras.push({ label: 'answer', swatch: { border: `3px double ${GRAPH_COLORS.answerBorder}`, backgroundColor: GRAPH_COLORS.background } });
  // Edge styles only when edges are drawn (a run that linked one entity and read no relation has none).
  if (!graph.model.edges.length) return extras;
  if (graph.channels.length > 1) {
    for (const c of graph.channels)
      extras.push({ label: `${c} evidence`, swatch: { backgroundColor: CHANNEL_COLORS[c], borderRadius: 1, height: 3, width: 16 } });
  } else {
    extras.push({ label: 'selected edge', swatch: { backgroundColor: EDGE_COLORS.selected, borderRadius: 1, height: 3, width: 16 } });
  }
  extras.push({ label: 'candidate (not selected)', swatch: { backgroundColor: EDGE_COLORS.candidate, opacity: 0.5, borderRadius: 1, height: 2, width: 16 } });
  if (graph.hasHypotheses) {
    extras.push({ label: 'hypothesis accepted', swatch: { borderTop: `3px dashed ${EDGE_COLORS.hypothesisAccepted}`, borderRadius: 0, height: 0, width: 16 } });
    extras.push({ label: 'hypothesis rejected', swatch: { borderTop: `3px dotted ${EDGE_COLORS.hypothesisRejected}`, borderRadius: 0, height: 0, width: 16 } });
  }
  return extras;
}

/**
 * The run's evidence graph: nodes coloured by kind, seeds and answer ringed,
 * selected vs candidate edges, hypotheses dashed, edges coloured by source when
 * several channels contributed. The step filter shows the graph as of a step;
 * a click opens the element's provenance.
 */
export function RunGraphPanel({ run, tree, scope, asOf, only, onScope, selection, onSelect }: RunGraphPanelProps) {
  const [layout, setLayout] = useState<LayoutChoice>('dagre');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const stepOrdinals = useMemo(() => new Map(run.steps.map((s) => [s.id, s.ordinal])), [run.steps]);
  const evidenceSteps = useMemo(() => new Set(run.evidence.flatMap((e) => (e.stepId ? [e.stepId] : []))), [run.evidence]);
  const filterSteps = useMemo(() => filterableSteps(tree, evidenceSteps), [tree, evidenceSteps]);
  const asOfNode = asOf !== null ? tree.byOrdinal.get(asOf) : undefined;
  const highlightId = selection && selection.type !== 'ev' ? selection.id : null;

  const onlySteps = useMemo(() => (asOfNode && only ? new Set(flattenTree([asOfNode]).map((n) => n.step.id)) : null), [asOfNode, only]);
  const whole = useMemo(
    () => runToGraph(graphInputOf(run), { asOfOrdinal: asOfNode ? asOfNode.lastOrdinal : null, stepOrdinals, highlightId, onlySteps }),
    [run, asOfNode, stepOrdinals, highlightId, onlySteps],
  );
  const cited = useMemo(() => citedEdgeIds(whole.model, whole.evidenceByElement, run.answer?.evidenceIds ?? []), [whole, run.answer]);
  const shownScope: GraphScope = asOfNode ? 'all' : (scope ?? defaultScope(cited));
  const focused = useMemo(
    () => aggregate(shownScope === 'answer' ? answerSubgraph(whole.model, cited) : whole.model, { expanded }),
    [shownScope, whole.model, cited, expanded],
  );
  const graph = { ...whole, model: focused.model };
  const kinds = useMemo(() => kindsInModel(focused.model), [focused.model]);
  const onActivate = useCallback(
    (el: ActivatedElement) => {
      if (el.id.startsWith(AGGREGATE_PREFIX)) setExpanded((prev) => new Set([...prev, el.id]));
      else onSelect({ type: el.group === 'nodes' ? 'node' : 'edge', id: el.id });
    },
    [onSelect],
  );
  const layoutOption: GraphLayoutName | typeof ringsLayout = layout === 'rings' ? ringsLayout : layout;
  const selectId = 'graph-step-filter';
  const showValue = asOfNode ? String(asOfNode.step.ordinal) : shownScope;
  const summary = (
    <p
      className="text-sm text-slate-700"
      data-testid="graph-summary"
      data-scope={shownScope}
      data-kg-edges={whole.kgEdges}
      data-nodes={whole.model.nodes.length}
      data-edges={whole.model.edges.length}
      data-folded={focused.folded}
    >
      {shownScope === 'answer' && !asOfNode ? (
        <>
          The {cited.size} relation{cited.size === 1 ? '' : 's'} the answer cites, with the question&apos;s entities
          <span className="text-slate-500">
            {' '}
            · the run recorded {plural(whole.model.nodes.length, 'entity', 'entities')} and {plural(whole.model.edges.length, 'relation', 'relations')} (
            {plural(whole.kgEdges, 'KG edge', 'KG edges')})
          </span>
        </>
      ) : (
        <>
          {plural(whole.model.nodes.length, 'entity', 'entities')} · {plural(whole.model.edges.length, 'relation', 'relations')} (
          {plural(whole.kgEdges, 'KG edge', 'KG edges')})
          {asOfNode ? (
            <span className="text-slate-500">
              {' '}
              · {only ? 'only' : 'as of the end of'} “{asOfNode.step.label}”
            </span>
          ) : null}
        </>
      )}
      {focused.folded ? (
        <span className="text-slate-500">
          {' '}
          · {focused.folded} candidates folded into {focused.groups.length} groups (click a dashed box to open it)
        </span>
      ) : null}
      {whole.model.nodes.length ? <span className="text-slate-500"> · click an element for its provenance</span> : null}
    </p>
  );

  return (
    <section aria-labelledby="graph-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-3 py-1.5">
        <h2 id="graph-heading" className="text-sm font-semibold text-slate-900">
          Evidence graph
        </h2>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <label htmlFor={selectId} className="text-slate-700">
            Show
          </label>
          <select
            id={selectId}
            data-testid="graph-step-filter"
            value={showValue}
            onChange={(e) => {
              const v = e.target.value;
              if (v === 'answer' || v === 'all') onScope(v, null, false);
              else onScope('all', Number(v), only);
            }}
            className="h-7 max-w-60 rounded-md border border-slate-300 bg-white px-1.5 text-xs text-slate-800"
          >
            <option value="answer" disabled={!cited.size}>
              the answer&apos;s evidence{cited.size ? '' : ' (none cited)'}
            </option>
            <option value="all">the whole run</option>
            {filterSteps.map((n) => (
              <option key={n.step.id} value={n.step.ordinal}>
                {`${n.depth ? '— ' : ''}${n.step.label}`}
              </option>
            ))}
          </select>
          <label
            className="flex items-center gap-1.5 text-slate-700"
            title="Unticked: everything recorded up to the end of the chosen step. Ticked: only that step's own evidence."
          >
            <input
              type="checkbox"
              checked={only}
              disabled={!asOfNode}
              onChange={(e) => onScope('all', asOf, e.target.checked)}
              className="size-3.5"
              data-testid="graph-only-step"
            />
            this step only
          </label>
          <label htmlFor="graph-layout" className="sr-only">
            Layout
          </label>
          <select
            id="graph-layout"
            value={layout}
            onChange={(e) => setLayout(e.target.value as LayoutChoice)}
            className="h-7 rounded-md border border-slate-300 bg-white px-1.5 text-xs text-slate-800"
            title="Layout"
          >
            {LAYOUTS.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
      </header>
      <div className="px-3 py-2">
        {whole.model.nodes.length === 0 ? (
          <div className="space-y-2">
            {summary}
            <div className="flex items-center justify-center rounded-md border border-slate-200 bg-slate-50 p-4" style={{ height: EMPTY_HEIGHT }}>
              <EmptyState
                title={run.status === 'queued' || run.status === 'running' ? 'No graph evidence yet' : 'No graph to draw'}
                className="w-full max-w-md border-0 bg-transparent"
              >
                {run.status === 'queued' || run.status === 'running'
                  ? 'Entities and relations appear as the method links and retrieves them.'
                  : run.config && !run.config.switches.kg
                    ? 'The kg switch was off and no entity of the question was linked, so there is nothing to draw. The evidence lists show what the run did use.'
                    : 'The run linked no entity and retrieved no relation. The evidence lists show what it did use.'}
              </EmptyState>
            </div>
          </div>
        ) : (
          <CytoscapeView
            model={graph.model}
            layout={layoutOption}
            height={GRAPH_HEIGHT}
            ariaLabel="Evidence graph of the run"
            onActivate={onActivate}
            elementOptions={ELEMENT_OPTIONS}
            extraStylesheet={RUN_GRAPH_STYLES}
            exportName={`hopscope-run-${run.id}${asOfNode ? `-${only ? 'only' : 'asof'}-step-${asOfNode.step.ordinal}` : ''}`}
            testId="run-graph"
            legibleFocus={LEGIBLE_FOCUS}
            caption={summary}
            footer={<GraphLegend kinds={kinds} extras={legendExtras(graph, { seeds: run.seeds.length > 0, answer: (run.answer?.nodeIds?.length ?? 0) > 0 })} />}
          />
        )}
      </div>
    </section>
  );
}

/** The graph's place while the run's evidence is fetched: the panel's frame at the canvas's height, so the page does not move when it comes. */
export function RunGraphLoading() {
  return (
    <section aria-labelledby="graph-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm" data-testid="run-graph-loading">
      <header className="flex items-center border-b border-slate-200 px-3 py-1.5">
        <h2 id="graph-heading" className="text-sm font-semibold text-slate-900">
          Evidence graph
        </h2>
        <span aria-hidden className="h-7" />
      </header>
      <div className="flex items-center justify-center px-3 py-2" style={{ height: GRAPH_HEIGHT }}>
        <Spinner label="Loading the graph…" />
      </div>
    </section>
  );
}
