'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { EvidenceChip } from '@/components/runs/EvidenceBits';
import { formatMs } from '@/components/runs/format';
import { stepDetailQueryOptions } from '@/components/runs/queries';
import { ErrorState } from '@/components/ui/ErrorState';
import { Skeleton } from '@/components/ui/Skeleton';
import { cn } from '@/components/ui/cn';
import { JsonView } from './JsonView';
import { ModelCallList } from './ModelCallList';
import { rendererFor, type TraceContext } from './renderers';
import type { StepNode } from './tree';

/**
 * The selected step beside the trace tree: the method-specific view of its
 * output (when a renderer claims its kind), with the raw input and output one
 * click away, its model calls and the evidence it recorded.
 */
type Tab = 'view' | 'input' | 'output';

export function StepDetail({ node, ctx }: { node: StepNode; ctx: TraceContext }) {
  const s = node.step;
  const query = useQuery(stepDetailQueryOptions(ctx.run, s.id, s.status));
  const renderer = rendererFor(s.kind);
  const [chosen, setTab] = useState<Tab>('view');
  const tab: Tab = !renderer && chosen === 'view' ? 'output' : chosen;
  const evidence = useMemo(() => ctx.run.evidence.filter((e) => e.stepId === s.id), [ctx.run.evidence, s.id]);
  const tabs: { id: Tab; label: string }[] = [
    ...(renderer ? [{ id: 'view' as const, label: renderer.title }] : []),
    { id: 'input', label: 'Input (JSON)' },
    { id: 'output', label: 'Output (JSON)' },
  ];
  return (
    <section id="step-detail" aria-label={`Details of ${s.label}`} className="space-y-3" data-testid="step-detail" data-kind={s.kind} data-ordinal={s.ordinal}>
      <header className="space-y-0.5">
        <h3 className="text-base font-semibold break-words text-slate-900">{s.label}</h3>
        <p className="text-xs text-slate-600">
          <span className="font-mono">{s.kind}</span> · step {s.ordinal} · {s.status} · started {s.startedAt.slice(11, 19)} UTC · {formatMs(s.durationMs)}
          {s.calls ? ` · ${s.calls} model call${s.calls === 1 ? '' : 's'}, ${formatTokens(s)}` : ''}
        </p>
        {s.headline ? <p className={cn('text-sm', s.status === 'failed' ? 'text-red-800' : 'text-slate-700')}>{s.headline}</p> : null}
        {s.contractIssue ? (
          <p className="text-xs text-amber-900" data-testid="contract-issue">
            ⚑ Contract violation: this step&apos;s output did not fit its kind&apos;s contract when it was recorded (kept as recorded):{' '}
            {s.contractIssue.split('\n')[0]}
          </p>
        ) : null}
      </header>
      <div role="tablist" aria-label="Step views" className="flex flex-wrap gap-1 border-b border-slate-200">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            onClick={() => setTab(t.id)}
            data-testid={`step-tab-${t.id}`}
            className={cn(
              '-mb-px border-b-2 px-2.5 py-1.5 text-xs font-semibold',
              tab === t.id ? 'border-blue-600 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      {query.isPending ? (
        <div className="space-y-2" aria-busy>
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState title="The step could not be loaded" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <div role="tabpanel">
            {tab === 'view' && renderer ? (
              <renderer.Output detail={query.data} ctx={ctx} />
            ) : (
              <JsonView
                value={tab === 'input' ? query.data.step.input : query.data.step.output}
                label={tab === 'input' ? 'Step input' : 'Step output'}
                className="max-h-[32rem]"
              />
            )}
          </div>
          {query.data.calls.length ? (
            <section className="space-y-1">
              <h4 className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Model calls ({query.data.calls.length})</h4>
              <ModelCallList calls={query.data.calls} />
            </section>
          ) : null}
        </>
      )}
      {evidence.length ? (
        <section className="space-y-1">
          <h4 className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Evidence recorded here ({evidence.length})</h4>
          <div className="flex max-h-40 flex-wrap gap-1 overflow-auto">
            {evidence.map((e) => (
              <EvidenceChip key={e.id} evidence={e} onSelect={ctx.selectEvidence} />
            ))}
          </div>
        </section>
      ) : null}
    </section>
  );
}

function formatTokens(s: StepNode['step']): string {
  const approx = s.tokensEstimated ? '≈' : '';
  return `${approx}${s.tokensIn.toLocaleString('en-US')} tokens in, ${approx}${s.tokensOut.toLocaleString('en-US')} out${s.tokensEstimated ? ' (estimated)' : ''}`;
}
