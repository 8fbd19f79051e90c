'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, type ReactNode } from 'react';
import { EDGE_COLORS, GRAPH_COLORS } from '@/components/graph/colors';
import { CytoscapeView } from '@/components/graph/CytoscapeView';
import { kindsInModel } from '@/components/graph/elements';
import { GraphLegend } from '@/components/graph/Legend';
import { COMPARE_STYLES } from '@/components/graph/view-styles';
import { CopyLink } from '@/components/runs/CopyLink';
import { graphInputOf, runToGraph } from '@/components/runs/evidence-graph';
import { backendLabel, describeChange, formatCount, formatMs, STATUS_TONES, statusLabel } from '@/components/runs/format';
import { runViewQueryOptions } from '@/components/runs/queries';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import { Spinner } from '@/components/ui/Spinner';
import type { ConfigChange } from '@/lib/runs/config';
import type { RunView } from '@/lib/runs/view';
import { alignSteps, mergeGraphs, type AlignedRow } from './align';

export interface ComparePageProps {
  aId: string;
  bId: string;
  /** Config changes from A to B (computed on the server). */
  configDiff: ConfigChange[];
  shareId: string;
  readOnly: boolean;
  /** The attribution panel, when the question was run across the switch grid (server-rendered). */
  attribution?: ReactNode;
}

/**
 * Two runs side by side: their answers, correctness and cost, the config
 * change between them, their evidence graphs merged (only in A / only in B /
 * in both), and their traces aligned step by step. Both poll while running.
 */
export function ComparePage({ aId, bId, configDiff, shareId, readOnly, attribution }: ComparePageProps) {
  const qa = useQuery(runViewQueryOptions({ id: aId, shared: readOnly }));
  const qb = useQuery(runViewQueryOptions({ id: bId, shared: readOnly }));
  const a = qa.data;
  const b = qb.data;
  const graphs = useMemo(() => {
    if (!a || !b) return null;
    const ga = runToGraph(graphInputOf(a));
    const gb = runToGraph(graphInputOf(b));
    return { ga, gb, merged: mergeGraphs(ga.model, gb.model) };
  }, [a, b]);
  const rows = useMemo(() => (a && b ? alignSteps(a.steps, b.steps) : []), [a, b]);
  if (!a || !b || !graphs) return <Spinner label="Loading the runs…" />;
  const runHref = (r: RunView, step?: number) => `${readOnly ? `/r/${r.shareId}` : `/runs/${r.id}`}${step !== undefined ? `?step=${step}` : ''}`;
  const sameQuestion = a.question === b.question;

  return (
    <div className="space-y-5" data-testid="compare-page">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Compare two runs</h1>
          <p className="max-w-3xl text-sm break-words whitespace-pre-wrap text-slate-700">
            {sameQuestion ? a.question : 'The two runs answer different questions.'}
          </p>
        </div>
        <CopyLink path={`/c/${shareId}`} label="Permalink of this comparison" testId="compare-share-link" />
      </header>

      <div className="grid gap-4 md:grid-cols-2">
        <RunCard run={a} side="A" graphKgEdges={graphs.ga.kgEdges} href={runHref(a)} showQuestion={!sameQuestion} />
        <RunCard run={b} side="B" graphKgEdges={graphs.gb.kgEdges} href={runHref(b)} showQuestion={!sameQuestion} />
      </div>

      <section aria-labelledby="diff-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <header className="border-b border-slate-200 px-4 py-2">
          <h2 id="diff-heading" className="text-sm font-semibold text-slate-900">
            What changed from A to B
          </h2>
        </header>
        <div className="px-4 py-3 text-sm" data-testid="config-diff">
          {configDiff.length === 0 ? (
            <p className="text-slate-600">The two runs have the same configuration.</p>
          ) : (
            <ul className="list-disc space-y-0.5 pl-5 font-mono text-xs">
              {configDiff.map((c) => (
                <li key={c.path} data-path={c.path}>
                  {describeChange(c)}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      {attribution}

      <section aria-labelledby="merged-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
          <h2 id="merged-heading" className="text-sm font-semibold text-slate-900">
            Evidence graphs merged
          </h2>
          <p
            className="text-xs text-slate-700"
            data-testid="merged-counts"
            data-only-a={graphs.merged.counts.onlyA}
            data-only-b={graphs.merged.counts.onlyB}
            data-both={graphs.merged.counts.both}
          >
            {graphs.merged.counts.onlyA} relations only in A · {graphs.merged.counts.onlyB} only in B · {graphs.merged.counts.both} in both
          </p>
        </header>
        <div className="px-4 py-3">
          {graphs.merged.model.nodes.length ? (
            <CytoscapeView
              model={graphs.merged.model}
              layout="force"
              height={520}
              ariaLabel="Merged evidence graph of runs A and B"
              extraStylesheet={COMPARE_STYLES}
              elementOptions={{ maxLabelLength: 22, alwaysLabelEdgesUpTo: 12 }}
              exportName={`hopscope-compare-${a.id}-${b.id}`}
              testId="compare-graph"
              footer={
                <GraphLegend
                  kinds={kindsInModel(graphs.merged.model)}
                  extras={[
                    { label: 'only in A', swatch: { backgroundColor: EDGE_COLORS.onlyA, borderRadius: 1, height: 3, width: 16 } },
                    { label: 'only in B', swatch: { backgroundColor: EDGE_COLORS.onlyB, borderRadius: 1, height: 3, width: 16 } },
                    { label: 'in both', swatch: { backgroundColor: EDGE_COLORS.both, borderRadius: 1, height: 3, width: 16 } },
                    { label: 'seed', swatch: { border: `3px solid ${GRAPH_COLORS.seedBorder}`, backgroundColor: GRAPH_COLORS.background } },
                  ]}
                />
              }
            />
          ) : (
            <p className="text-sm text-slate-600">Neither run has graph evidence to draw.</p>
          )}
        </div>
      </section>

      <section aria-labelledby="align-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
          <h2 id="align-heading" className="text-sm font-semibold text-slate-900">
            Stages aligned by kind and iteration
          </h2>
          <p className="text-xs text-slate-600">
            {rows.filter((r) => r.a && r.b).length} in both · {rows.filter((r) => r.a && !r.b).length} only in A · {rows.filter((r) => !r.a && r.b).length} only
            in B · {rows.filter((r) => r.differs).length} came out differently
          </p>
        </header>
        <div className="max-h-[640px] overflow-auto px-4 py-3">
          <StepAlignment rows={rows} a={a} b={b} runHref={runHref} />
        </div>
      </section>
    </div>
  );
}

function RunCard({
  run,
  side,
  graphKgEdges,
  href,
  showQuestion,
}: {
  run: RunView;
  side: 'A' | 'B';
  graphKgEdges: number;
  href: string;
  showQuestion: boolean;
}) {
  const live = run.status === 'queued' || run.status === 'running';
  const answer = run.answer
    ? run.answer.abstained || !run.answer.text.trim()
      ? 'abstained'
      : run.answer.optionKey
        ? `${run.answer.optionKey}. ${run.answer.text}`
        : run.answer.text
    : null;
  return (
    <section
      aria-label={`Run ${side}`}
      className={cn('space-y-2 rounded-lg border bg-white p-4 shadow-sm', side === 'A' ? 'border-blue-300' : 'border-orange-300')}
      data-testid={`compare-run-${side.toLowerCase()}`}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">
          <span className={cn('mr-2 rounded px-1.5 py-0.5 text-white', side === 'A' ? 'bg-blue-700' : 'bg-orange-600')}>{side}</span>
          <Link href={href} className="text-blue-800 underline">
            {run.methodName}
          </Link>
        </h2>
        <span className="flex items-center gap-2">
          {live ? <Spinner label="running" /> : null}
          <Badge tone={STATUS_TONES[run.status]}>{statusLabel(run.status)}</Badge>
        </span>
      </div>
      {showQuestion ? <p className="text-sm break-words text-slate-800">{run.question}</p> : null}
      <p className="text-xs text-slate-600">
        {backendLabel(run.config)} · switches:{' '}
        {run.config
          ? Object.entries(run.config.switches)
              .map(([c, on]) => `${c} ${on ? 'on' : 'off'}`)
              .join(', ')
          : '—'}
        {run.config?.kgShuffle ? ` · kgShuffle ${run.config.kgShuffle.seed}` : ''}
      </p>
      <p className="min-h-6 text-base font-semibold break-words text-slate-900" data-testid={`compare-answer-${side.toLowerCase()}`}>
        {run.status === 'failed' ? <span className="text-red-800">failed: {run.error}</span> : (answer ?? (live ? 'running…' : 'no answer'))}
        {run.answer && (run.answer.abstained || !run.answer.text.trim()) ? (
          <Badge tone="amber" className="ml-2">
            ∅ abstained
          </Badge>
        ) : run.correct === true ? (
          <Badge tone="green" className="ml-2">
            ✓ correct
          </Badge>
        ) : run.correct === false ? (
          <Badge tone="red" className="ml-2">
            ✗ incorrect
          </Badge>
        ) : null}
      </p>
      <dl className="grid grid-cols-2 gap-x-3 gap-y-0.5 text-xs tabular-nums sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">Model calls</dt>
          <dd className="font-semibold">{formatCount(run.cost?.modelCalls)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Tokens in / out</dt>
          <dd className="font-semibold">
            {formatCount(run.cost?.tokensIn)} / {formatCount(run.cost?.tokensOut)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Wall time</dt>
          <dd className="font-semibold">{formatMs(run.cost?.wallMs)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">KG edges in graph</dt>
          <dd className="font-semibold" data-testid={`kg-edges-${side.toLowerCase()}`} data-count={graphKgEdges}>
            {graphKgEdges}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-slate-600">
        {run.steps.length} steps · {run.evidence.length} evidence records ({run.evidence.filter((e) => e.selected).length} selected)
      </p>
    </section>
  );
}

function StepCell({ step, href }: { step: AlignedRow['a']; href: string }) {
  if (!step) return <td className="px-2 py-1 text-slate-400">—</td>;
  return (
    <td className="px-2 py-1">
      <Link href={href} className="text-slate-800 hover:text-blue-800 hover:underline">
        <span className={cn('mr-1 font-medium', step.status === 'failed' && 'text-red-800', step.status === 'skipped' && 'text-slate-500')}>{step.status}</span>
        <span className="text-slate-600">{step.headline ?? ''}</span>
      </Link>
      <span className="ml-1 text-[11px] text-slate-500 tabular-nums">
        {step.calls ? `${step.calls} calls · ` : ''}
        {formatMs(step.durationMs)}
      </span>
    </td>
  );
}

function StepAlignment({ rows, a, b, runHref }: { rows: AlignedRow[]; a: RunView; b: RunView; runHref: (r: RunView, step?: number) => string }) {
  if (!rows.length) return <p className="text-sm text-slate-600">Neither run recorded steps.</p>;
  return (
    <table className="w-full table-fixed text-left text-xs" data-testid="step-alignment">
      <caption className="sr-only">The two traces, stage by stage (matched by kind and iteration)</caption>
      <thead className="sticky top-0 bg-white text-slate-700">
        <tr>
          <th scope="col" className="w-1/3 px-2 py-1">
            Step
          </th>
          <th scope="col" className="px-2 py-1">
            A
          </th>
          <th scope="col" className="px-2 py-1">
            B
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.key}
            data-presence={r.a && r.b ? 'both' : r.a ? 'a' : 'b'}
            data-kind={r.kind}
            data-iteration={r.iteration}
            data-differs={r.differs ? 'true' : 'false'}
            className={cn('border-t border-slate-100 align-top', !r.b && 'bg-blue-50/60', !r.a && 'bg-orange-50/60', r.differs && 'bg-amber-50')}
          >
            <th scope="row" className="px-2 py-1 font-normal" style={{ paddingLeft: 8 + r.depth * 14 }}>
              <span className="font-medium text-slate-900">{r.label}</span> <span className="font-mono text-[10px] text-slate-500">{r.kind}</span>
              {!r.b ? (
                <span className="ml-1 text-[10px] font-semibold text-blue-800">only A</span>
              ) : !r.a ? (
                <span className="ml-1 text-[10px] font-semibold text-orange-700">only B</span>
              ) : null}
            </th>
            <StepCell step={r.a} href={r.a ? runHref(a, r.a.ordinal) : ''} />
            <StepCell step={r.b} href={r.b ? runHref(b, r.b.ordinal) : ''} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
