'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/EmptyState';
import { ErrorState } from '@/components/ui/ErrorState';
import { Skeleton } from '@/components/ui/Skeleton';
import { fetchJson } from '@/lib/api/client';
import { pct } from '@/lib/eval/jobs/format';
import type { EvalJobView } from '@/lib/eval/jobs/read';
import { AttributionMatrix } from './AttributionMatrix';
import { AttributionTable } from './AttributionTable';
import { BarChart } from './BarChart';
import { accuracyBars, costPoints, COST_METRICS, familyBars, type CostMetric } from './chart-data';
import { FamilyTable } from './FamilyTable';
import { ProgressPanel } from './ProgressPanel';
import { evalApiUrls, evalKeys, evalViewOptions, isLive, jobRevision, type EvalSource } from './queries';
import { QuestionDrilldown } from './QuestionDrilldown';
import { ScatterPlot } from './ScatterPlot';
import { ScoreTable } from './ScoreTable';

/** Right margin that keeps the content clear of the 36rem drill-down panel: the panel's width less the gutter beside the 80rem main column. */
const DRILLDOWN_ROOM = 'lg:mr-[max(0px,min(36rem,calc(36rem_-_(100vw_-_80rem)_/_2)))]';

const STATUS_TONES = { queued: 'neutral', running: 'blue', succeeded: 'green', failed: 'red', cancelled: 'amber' } as const;

/** The URL keeps what the reader selected (question, matrix page, cost axis), so a link reproduces the view. */
function useViewState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const set = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(params.toString());
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) next.delete(k);
        else next.set(k, v);
      }
      const qs = next.toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [params, router, pathname],
  );
  const cost = params.get('cost');
  return {
    question: params.get('q'),
    page: Math.max(0, Number(params.get('page')) || 0),
    cost: (cost && cost in COST_METRICS ? cost : 'calls') as CostMetric,
    set,
  };
}

/** The evaluation page (and its read-only share view): progress, tables, plots, matrix, drill-down, exports. */
export function EvalResults({ source }: { source: EvalSource }) {
  const { data: view, error, isPending, refetch } = useQuery(evalViewOptions(source));
  const state = useViewState();
  if (isPending) return <Skeleton className="h-96 w-full" />;
  if (error) return <ErrorState title="The evaluation could not be loaded" error={error} onRetry={() => void refetch()} />;
  const live = isLive(view.status);
  const configs = view.configs.map((c) => c.key);
  const anyScored = view.summary.scores.some((s) => s.accuracy !== null);
  const showFamilies = view.summary.families.columns.length > 1 || view.summary.families.columns.some((c) => c.family !== '(none)');

  return (
    // While the drill-down panel is open the page makes room for it (on wide screens), so it hides nothing.
    <div className={cn('space-y-6', state.question && DRILLDOWN_ROOM)} data-testid="eval-results" data-status={view.status}>
      <Header view={view} source={source} />
      <Card title="Progress" headingId="progress-heading">
        <ProgressPanel progress={view.progress} status={view.status} />
      </Card>

      <Card title="Scores per method × configuration" headingId="scores-heading" actions={live ? <span>updating while the job runs</span> : null}>
        <ScoreTable scores={view.summary.scores} />
      </Card>

      {anyScored ? (
        <div className="grid gap-6 2xl:grid-cols-2">
          <Card title="Accuracy by method and configuration" headingId="accuracy-chart-heading">
            <BarChart
              title="Accuracy"
              description="bars per configuration, grouped by method"
              testId="accuracy-chart"
              format={(v) => `${pct(v, 0)}%`}
              {...accuracyBars(view.summary, view.methods, configs)}
            />
          </Card>
          <Card
            title="Cost against accuracy"
            headingId="cost-chart-heading"
            actions={
              <label className="flex items-center gap-1.5">
                <span>x axis</span>
                <select
                  className="rounded border border-slate-300 bg-white px-1.5 py-0.5 text-sm"
                  value={state.cost}
                  onChange={(e) => state.set({ cost: e.target.value })}
                >
                  {Object.entries(COST_METRICS).map(([key, m]) => (
                    <option key={key} value={key}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </label>
            }
          >
            <ScatterPlot
              title="Each point is a method × configuration"
              testId="cost-scatter"
              points={costPoints(view.summary, view.methods, state.cost)}
              xLabel={`${COST_METRICS[state.cost].label}${state.cost === 'tokens' && view.summary.cost.some((p) => p.tokensEstimated) ? ' (estimated: the backend reported none)' : ''}`}
              yLabel="accuracy"
              formatX={(x) => (x >= 100 ? x.toFixed(0) : x.toFixed(x >= 10 ? 1 : 2))}
              formatY={(y) => `${pct(y, 0)}%`}
            />
          </Card>
        </div>
      ) : (
        <EmptyState title="No scores yet">
          {live ? 'The plots appear as soon as the first runs are scored.' : 'No run of this evaluation could be scored (its questions carry no gold answers).'}
        </EmptyState>
      )}

      {showFamilies && anyScored ? (
        <Card title="Accuracy per family (BioMedHop Overall Avg)" headingId="family-heading">
          <div className="space-y-4">
            <FamilyTable table={view.summary.families} />
            <BarChart
              title="Family average"
              description="bars per method and configuration, grouped by family"
              testId="family-chart"
              format={(v) => `${pct(v, 0)}%`}
              {...familyBars(view.summary)}
            />
          </div>
        </Card>
      ) : null}

      {view.summary.attribution ? (
        <Card title="Attribution buckets (X-R2)" headingId="buckets-heading">
          <AttributionTable attribution={view.summary.attribution} methods={view.methods} />
        </Card>
      ) : null}

      <Card
        title="Attribution matrix: every question under every configuration"
        headingId="matrix-heading"
        actions={<span>a cell opens its run; a question opens its drill-down</span>}
      >
        <AttributionMatrix
          source={source}
          revision={jobRevision(view)}
          page={state.page}
          selectedQuestion={state.question}
          onPage={(page) => state.set({ page: page ? String(page) : null })}
          onSelectQuestion={(q) => state.set({ q: state.question === q ? null : q })}
        />
      </Card>

      {state.question ? (
        <QuestionDrilldown source={source} questionId={state.question} revision={jobRevision(view)} onClose={() => state.set({ q: null })} />
      ) : null}
    </div>
  );
}

function Header({ view, source }: { view: EvalJobView; source: EvalSource }) {
  const sample =
    view.sample?.limit && view.sample.limit < view.sample.setTotal
      ? `a sample of ${view.sample.limit} of ${view.sample.setTotal} questions (seed ${view.sample.seed})`
      : null;
  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">{view.name ?? 'Evaluation'}</h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <Badge tone={STATUS_TONES[view.status]}>
              <span data-testid="eval-status">{view.status}</span>
            </Badge>
            <span>
              Set <strong>{view.set?.name ?? '(deleted)'}</strong>
              {view.set ? ` (${view.set.source})` : ''}
              {sample ? `, ${sample}` : ''}
            </span>
            <span>· {view.backend.backend === 'offline' ? 'offline engine (no language model)' : `model ${view.backend.model}`}</span>
            <span>· {view.concurrency} runs at a time</span>
          </p>
          <p className="flex flex-wrap gap-1.5 text-xs">
            {view.methods.map((m) => (
              <Badge key={m} tone="blue">
                {m}
              </Badge>
            ))}
            {view.configs.map((c) => (
              <Badge key={c.key}>{c.key}</Badge>
            ))}
          </p>
        </div>
        <Actions view={view} source={source} />
      </div>
      {source.kind === 'share' ? <p className="text-sm text-slate-600">A shared, read-only view of this evaluation.</p> : null}
    </header>
  );
}

function Actions({ view, source }: { view: EvalJobView; source: EvalSource }) {
  const queryClient = useQueryClient();
  const [copied, setCopied] = useState(false);
  const shareHref = `/e/${view.shareId}`;
  const cancel = useMutation({
    mutationFn: (id: string) => fetchJson<{ status: string }>(evalApiUrls.cancel(id), { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: evalKeys.all }),
  });
  const link = 'inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-800 hover:bg-slate-50';
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <a className={link} href={evalApiUrls.export(source, 'csv', 'items')} download data-testid="export-csv">
          CSV (runs)
        </a>
        <a className={link} href={evalApiUrls.export(source, 'csv', 'scores')} download>
          CSV (scores)
        </a>
        <a className={link} href={evalApiUrls.export(source, 'json')} download data-testid="export-json">
          JSON
        </a>
        {source.kind === 'job' ? (
          <>
            <Link className={link} href={shareHref} data-testid="share-link">
              Share link
            </Link>
            <Button
              size="sm"
              onClick={() => {
                void navigator.clipboard?.writeText(new URL(shareHref, window.location.origin).toString()).then(() => setCopied(true));
              }}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
            {isLive(view.status) && view.id ? (
              <Button size="sm" variant="secondary" className="text-red-800" disabled={cancel.isPending} onClick={() => cancel.mutate(view.id!)}>
                Cancel
              </Button>
            ) : null}
          </>
        ) : null}
      </div>
      {cancel.error ? <ErrorState title="Cancelling failed" error={cancel.error} /> : null}
    </div>
  );
}
