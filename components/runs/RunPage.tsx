'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { StageProgress } from '@/components/trace/StageProgress';
import { StepDetail } from '@/components/trace/StepDetail';
import { TraceTree } from '@/components/trace/TraceTree';
import { TraceWaterfall } from '@/components/trace/TraceWaterfall';
import { buildStepTree, stageProgress } from '@/components/trace/tree';
import { useWideContent } from '@/components/trace/use-wide-content';
import { ErrorState } from '@/components/ui/ErrorState';
import { ResizableSplit } from '@/components/ui/ResizableSplit';
import { Spinner } from '@/components/ui/Spinner';
import type { ParamDescriptor } from '@/lib/methods/descriptors';
import { graphInputOf, runToGraph } from './evidence-graph';
import { AnswerBox } from './AnswerBox';
import { CitedEvidence } from './CitedEvidence';
import { EvidencePanel } from './EvidencePanel';
import { firstScreenOf } from './first-screen';
import { K2vPanel } from './K2vPanel';
import { ProvenancePanel } from './ProvenancePanel';
import { isLive, runHeadQueryOptions, runKeys, runViewQueryOptions } from './queries';
import { RerunForm } from './RerunForm';
import { RunActions } from './RunActions';
import { RunGraphLoading, RunGraphPanel } from './RunGraphPanel';
import { RunFacts, RunHeader } from './RunHeader';
import { useRunViewState } from './use-view-state';
import type { GraphScope, Selection } from './view-state';

export interface RunPageProps {
  id: string;
  /** The permalink: no rerun, cancel or verify; links go to other permalinks. */
  readOnly: boolean;
  /** Parameters of the run's method, for the rerun form (absent on a permalink). */
  methodParams?: readonly ParamDescriptor[];
}

type RunRef = { id: string; shareId: string };

/**
 * The run page. The first screen answers "what did it conclude, from which
 * evidence, and why not more?": the answer box, the evidence the answer cites
 * (or the provenance of what is selected) and the answer's subgraph. Below:
 * settings and cost, K2V, progress, the trace beside the step detail, every
 * evidence record and the rerun form. The first response carries the first
 * screen's part of the run (hydrated, ./first-screen.ts); the whole view is
 * fetched once the page has hydrated, and polled while the run is queued or running.
 */
export function RunPage({ id, readOnly, methodParams }: RunPageProps) {
  const queryClient = useQueryClient();
  const query = useQuery(runViewQueryOptions({ id, shared: readOnly }));
  const [state, update] = useRunViewState();
  const [traceView, setTraceView] = useState<'tree' | 'timeline'>('tree');
  // The step panel goes full width when the reader asks, or by itself when a table in it would scroll sideways.
  const stepPanel = useRef<HTMLDivElement>(null);
  const [wideChoice, setWideChoice] = useState<boolean | null>(null);
  const [autoWide, setAutoWide] = useState<number | null>(null);
  const overflowing = useWideContent(stepPanel, state.step);
  if (overflowing && state.step !== null && autoWide !== state.step) setAutoWide(state.step);
  const wide = wideChoice ?? (state.step !== null && autoWide === state.step);
  const run = query.data;
  // The first screen, as the server sent it until the whole view has come, then from the view (the same, by one function).
  const sent = useQuery(runHeadQueryOptions(id)).data;
  const head = useMemo(() => (run ? firstScreenOf(run) : sent), [run, sent]);

  const tree = useMemo(() => buildStepTree(run?.steps ?? []), [run?.steps]);
  const stages = useMemo(() => stageProgress(tree, run?.plannedStages), [tree, run?.plannedStages]);
  const evidenceById = useMemo(() => new Map((run?.evidence ?? []).map((e) => [e.id, e])), [run?.evidence]);
  const provenanceIndex = useMemo(() => (run ? runToGraph(graphInputOf(run)).evidenceByElement : new Map<string, string[]>()), [run]);

  const onSelect = useCallback((sel: Selection | null) => update({ sel }), [update]);
  const onSelectEvidence = useCallback((evId: string) => update({ sel: { type: 'ev', id: evId } }), [update]);
  const onSelectNode = useCallback((nodeId: string) => update({ sel: { type: 'node', id: nodeId } }), [update]);
  const onSelectStep = useCallback((ordinal: number | null) => update({ step: ordinal }), [update]);
  // From the first screen, a step opens in the trace's detail panel further down: go there, or,
  // before the whole view (and so the trace) has come, once it comes.
  const toTraceOnArrival = useRef(false);
  const onOpenStep = useCallback(
    (ordinal: number) => {
      update({ step: ordinal });
      toTraceOnArrival.current = !scrollToId('trace-heading');
    },
    [update],
  );
  useEffect(() => {
    if (run && toTraceOnArrival.current) toTraceOnArrival.current = !scrollToId('trace-heading');
  }, [run]);
  const onScope = useCallback((scope: GraphScope, ordinal: number | null, only: boolean) => update({ scope, graph: ordinal, only }), [update]);
  const runHref = useCallback((r: RunRef) => (readOnly ? `/r/${r.shareId}` : `/runs/${r.id}`), [readOnly]);
  // A share link offers no comparison of private runs: the link is absent there.
  const compareHref = useCallback((a: RunRef, b: RunRef) => (readOnly ? null : `/compare/${a.id}/${b.id}`), [readOnly]);

  if (!head) {
    return query.isError ? (
      <ErrorState title="The run could not be loaded" error={query.error} onRetry={() => void query.refetch()} />
    ) : (
      <Spinner label="Loading the run…" />
    );
  }

  const live = isLive(head.status);
  const selectedNode = state.step !== null ? (tree.byOrdinal.get(state.step) ?? null) : null;
  return (
    <div
      className="space-y-4"
      data-testid="run-page"
      data-run-id={head.id}
      data-read-only={readOnly ? 'true' : 'false'}
      data-loaded={run ? 'all' : 'first-screen'}
    >
      {readOnly ? (
        <p className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700" data-testid="permalink-banner">
          A shared, read-only view of a frozen run record. Nothing here is recomputed.
        </p>
      ) : null}
      <RunHeader
        run={head}
        actions={<RunActions run={head} readOnly={readOnly} onChanged={() => void queryClient.invalidateQueries({ queryKey: runKeys.view(id) })} />}
      />
      {query.isError && run ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Lost contact with the server ({query.error.message}); still trying…
        </p>
      ) : null}
      {/* The first screen: what the run concluded and why (left), from which evidence (left, below), and the answer's subgraph (right). */}
      <div className="grid gap-4 lg:min-h-[min(680px,calc(100vh-220px))] lg:grid-cols-12" data-testid="run-first-screen">
        <div className="min-w-0 lg:relative lg:col-span-5">
          <div className="flex flex-col gap-3 lg:absolute lg:inset-0 lg:overflow-y-auto">
            <div className="shrink-0">
              <AnswerBox run={head} onShowVerification={() => scrollToId('k2v-heading')} />
            </div>
            {state.sel ? (
              run ? (
                <ProvenancePanel
                  run={run}
                  tree={tree}
                  selection={state.sel}
                  evidenceByElement={provenanceIndex}
                  evidenceById={evidenceById}
                  onSelect={onSelect}
                  onSelectStep={onOpenStep}
                />
              ) : (
                <Spinner label="Loading the provenance…" />
              )
            ) : (
              <CitedEvidence run={head} onSelectEvidence={onSelectEvidence} onSelectStep={onOpenStep} onShowAll={() => scrollToId('evidence-heading')} />
            )}
          </div>
        </div>
        <div className="min-w-0 lg:col-span-7">
          {run ? (
            <RunGraphPanel
              run={run}
              tree={tree}
              scope={state.scope}
              asOf={state.graph}
              only={state.only}
              onScope={onScope}
              selection={state.sel}
              onSelect={onSelect}
            />
          ) : (
            <RunGraphLoading />
          )}
        </div>
      </div>
      {run ? (
        <>
          <RunFacts run={run} runHref={runHref} compareHref={compareHref} />
          <K2vPanel verifications={run.verifications} />
          <StageProgress stages={stages} live={live} />
          <section aria-labelledby="trace-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
            <header className="flex min-h-11 items-center justify-between gap-3 border-b border-slate-200 px-4 py-2">
              <h2 id="trace-heading" className="text-sm font-semibold text-slate-900">
                Trace
              </h2>
              <span className="text-xs text-slate-600" data-testid="trace-count">
                {run.steps.length} steps{live ? ' so far' : ''} · select a step for its output, input and model calls
              </span>
            </header>
            <ResizableSplit
              label="Resize the step detail panel"
              className="p-3"
              start={
                <div className="space-y-2">
                  <div role="tablist" aria-label="Trace views" className="flex gap-1 border-b border-slate-200">
                    {(['tree', 'timeline'] as const).map((v) => (
                      <button
                        key={v}
                        type="button"
                        role="tab"
                        aria-selected={traceView === v}
                        onClick={() => setTraceView(v)}
                        data-testid={`trace-tab-${v}`}
                        className={`-mb-px border-b-2 px-2.5 py-1.5 text-xs font-semibold ${traceView === v ? 'border-blue-600 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
                      >
                        {v === 'tree' ? 'Trace tree' : 'Timeline and tokens'}
                      </button>
                    ))}
                  </div>
                  <div className="max-h-[80vh] overflow-y-auto pr-1">
                    {traceView === 'tree' ? (
                      <TraceTree run={run} tree={tree} selectedOrdinal={state.step} onSelectStep={onSelectStep} />
                    ) : (
                      <TraceWaterfall run={run} tree={tree} selectedOrdinal={state.step} onSelectStep={onSelectStep} />
                    )}
                  </div>
                </div>
              }
              endFullWidth={wide}
              end={
                <div
                  ref={stepPanel}
                  className={`max-h-[80vh] overflow-y-auto rounded-md border border-slate-200 bg-white p-3 ${wide ? '' : 'lg:ml-1'}`}
                  data-testid="step-panel"
                  data-wide={wide ? 'true' : 'false'}
                >
                  {selectedNode ? (
                    <>
                      <button
                        type="button"
                        onClick={() => setWideChoice(!wide)}
                        className="float-right ml-2 rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50"
                        title={wide ? 'Put the step detail back beside the trace' : 'Give the step detail the full width (wide tables)'}
                        data-testid="step-panel-width"
                      >
                        {wide ? '⇤ Beside the trace' : '⇔ Full width'}
                      </button>
                      <StepDetail
                        key={selectedNode.step.id}
                        node={selectedNode}
                        ctx={{
                          run,
                          evidenceById,
                          node: selectedNode,
                          selectEvidence: onSelectEvidence,
                          selectNode: onSelectNode,
                          selectStep: (o: number) => onSelectStep(o),
                        }}
                      />
                    </>
                  ) : (
                    <p className="py-6 text-center text-sm text-slate-600">
                      Select a step in the trace to see what it did: its rendered output, raw input and output, and model calls.
                    </p>
                  )}
                </div>
              }
            />
          </section>
          <EvidencePanel run={run} tree={tree} selectedEvidenceId={state.sel?.type === 'ev' ? state.sel.id : null} onSelectEvidence={onSelectEvidence} />
          {!readOnly && !live && methodParams ? <RerunForm run={run} params={methodParams} /> : null}
        </>
      ) : query.isError ? (
        <ErrorState title="The trace and the evidence could not be loaded" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div data-testid="run-rest-loading">
          <Spinner label="Loading the trace, the evidence and the graph…" />
        </div>
      )}
    </div>
  );
}

/** Scrolls to the element with this id; false when it is not on the page (yet). */
function scrollToId(id: string): boolean {
  const element = document.getElementById(id);
  element?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  return element !== null;
}
