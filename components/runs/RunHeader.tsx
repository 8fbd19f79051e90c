import Link from 'next/link';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/Badge';
import { Spinner } from '@/components/ui/Spinner';
import { cn } from '@/components/ui/cn';
import { CHANNEL_COLORS } from '@/components/graph/colors';
import { tokenTotals } from '@/lib/runs/call-tokens';
import type { RunView } from '@/lib/runs/view';
import { goldOf } from './AnswerBox';
import type { RunBase } from './first-screen';
import { useElapsedMs } from './use-elapsed';
import { backendLabel, describeChange, formatCount, formatMs, STATUS_TONES, statusLabel } from './format';

const CHANNEL_NAMES = { doc: 'documents', entity: 'entities', kg: 'KG', param: 'parametric', web: 'web', aids: 'Hopscope aids' } as const;

export interface RunHeaderProps {
  run: RunView;
  /** Links to other runs go to their permalinks when the page itself is one. */
  runHref: (run: { id: string; shareId: string }) => string;
  compareHref: (a: { id: string; shareId: string }, b: { id: string; shareId: string }) => string | null;
  actions?: ReactNode;
}

/** Question, method, backend, status and the run's actions: what was asked, compact, so the answer and its evidence fit the first screen below it. Text is rendered as text. */
export function RunHeader({ run, actions }: { run: RunBase; actions?: ReactNode }) {
  const live = run.status === 'queued' || run.status === 'running';
  // While the run is live its wall time is counted here, every second, rather than read from the last poll.
  const elapsedMs = useElapsedMs(run.status === 'running' ? run.startedAt : run.createdAt, live);
  return (
    <header className="space-y-1.5 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm" data-testid="run-header">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs font-medium tracking-wide text-slate-600 uppercase">
          <span className="normal-case" data-testid="run-method">
            {run.methodName}
          </span>
          <span aria-hidden>·</span>
          <span className="normal-case" data-testid="run-backend">
            {backendLabel(run.config)}
          </span>
          {run.kgVersion ? (
            <>
              <span aria-hidden>·</span>
              <span className="normal-case" title="Knowledge graph version">
                {run.kgVersion}
              </span>
            </>
          ) : null}
        </p>
        <div className="flex flex-wrap items-center justify-end gap-2">
          <div className="flex items-center gap-2" data-testid="run-status" data-status={run.status}>
            {live ? <Spinner label={run.status === 'queued' ? 'Queued…' : 'Running…'} /> : null}
            {live && elapsedMs !== null ? (
              <span
                className="text-sm text-slate-600 tabular-nums"
                data-testid="run-elapsed"
                title={run.status === 'queued' ? 'waiting since the run was created' : 'running since the run started'}
              >
                {formatMs(elapsedMs)}
              </span>
            ) : null}
            <Badge tone={STATUS_TONES[run.status]}>{statusLabel(run.status)}</Badge>
          </div>
          {actions}
        </div>
      </div>
      <Question text={run.question} />
      <Options run={run} />
      {run.documents.length ? (
        <p className="text-sm text-slate-700">
          Attached document{run.documents.length > 1 ? 's' : ''}:{' '}
          {run.documents.map((d, i) => (
            <span key={d.id}>
              {i ? ', ' : ''}
              <span className="font-medium">{d.title || 'untitled document'}</span>
            </span>
          ))}
        </p>
      ) : null}
    </header>
  );
}

/** How the run was set up and what it cost, with its reruns: read after the answer and its evidence. */
export function RunFacts({ run, runHref, compareHref }: Pick<RunHeaderProps, 'run' | 'runHref' | 'compareHref'>) {
  const live = run.status === 'queued' || run.status === 'running';
  const elapsedMs = useElapsedMs(run.status === 'running' ? run.startedAt : run.createdAt, live);
  return (
    <section aria-label="Run settings and cost" className="space-y-2 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm" data-testid="run-facts">
      <div className="flex flex-wrap items-start gap-x-6 gap-y-2">
        <Switches config={run.config} offDefaults={run.offDefaults} />
        <Cost run={run} liveMs={run.status === 'running' ? elapsedMs : null} />
      </div>
      <Deviations answer={run.answer} />
      <Lineage run={run} runHref={runHref} compareHref={compareHref} />
    </section>
  );
}

/** Where this run departs from its paper, as the method declared for its parameters (answer.extra.deviations). */
function Deviations({ answer }: { answer: RunView['answer'] }) {
  const listed = answer?.extra?.deviations;
  const deviations = Array.isArray(listed) ? listed.filter((d): d is string => typeof d === 'string') : [];
  if (!deviations.length) return null;
  return (
    <details className="text-sm" data-testid="run-deviations">
      <summary className="cursor-pointer text-slate-700 select-none">Deviations from the paper ({deviations.length})</summary>
      <ul className="mt-1 list-disc pl-5 text-xs text-slate-700">
        {deviations.map((d) => (
          <li key={d}>{d}</li>
        ))}
      </ul>
    </details>
  );
}

/** The question, clamped to three lines; a clamped question opens in full on a click of the heading or of its toggle (which closes it again). */
function Question({ text }: { text: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const [open, setOpen] = useState(false);
  const [clamped, setClamped] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || open) return;
    const measure = () => setClamped(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text, open]);
  const toggle = clamped || open ? () => setOpen((o) => !o) : undefined;
  return (
    <div>
      <h1
        ref={ref}
        className={cn('text-xl font-semibold break-words whitespace-pre-wrap text-slate-900', !open && 'line-clamp-3', clamped && !open && 'cursor-pointer')}
        data-testid="run-question"
        data-expanded={open ? 'true' : 'false'}
        onClick={clamped && !open ? () => setOpen(true) : undefined}
      >
        {text}
      </h1>
      {toggle ? (
        <button type="button" className="text-xs font-medium text-blue-800 underline" onClick={toggle} aria-expanded={open} data-testid="run-question-toggle">
          {open ? 'Show less' : 'Show the full question'}
        </button>
      ) : null}
    </div>
  );
}

function Options({ run }: { run: RunBase }) {
  const options = run.input.options;
  if (!options) return null;
  const chosen = run.answer?.optionKey ?? null;
  const goldKey = goldOf(run)?.key?.toUpperCase() ?? null;
  return (
    <ol className="grid gap-1 text-sm sm:grid-cols-2" aria-label="Answer options">
      {Object.entries(options).map(([key, text]) => (
        <li
          key={key}
          className={cn('flex gap-2 rounded-md border px-2 py-1', chosen === key ? 'border-blue-400 bg-blue-50' : 'border-slate-200')}
          data-testid={`option-${key}`}
        >
          <span className="font-semibold text-slate-700">{key}.</span>
          <span className="min-w-0 flex-1 break-words text-slate-800">{text}</span>
          {chosen === key ? <span className="text-xs font-medium text-blue-800">chosen</span> : null}
          {goldKey === key && run.status !== 'queued' && run.status !== 'running' ? <span className="text-xs font-medium text-emerald-800">gold</span> : null}
        </li>
      ))}
    </ol>
  );
}

function Switches({ config, offDefaults }: { config: RunView['config']; offDefaults: RunView['offDefaults'] }) {
  if (!config) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="run-switches">
      <span className="text-slate-600">Knowledge switches:</span>
      {(Object.keys(CHANNEL_NAMES) as (keyof typeof CHANNEL_NAMES)[]).map((c) => (
        <Badge
          key={c}
          tone={config.switches[c] ? (c === 'aids' ? 'amber' : 'green') : 'neutral'}
          dotColor={config.switches[c] ? CHANNEL_COLORS[c] : undefined}
          title={`${CHANNEL_NAMES[c]} channel ${config.switches[c] ? 'on' : 'off'}`}
        >
          <span data-switch={c} data-on={config.switches[c] ? 'true' : 'false'}>
            {c} {config.switches[c] ? 'on' : 'off'}
          </span>
        </Badge>
      ))}
      {config.kgShuffle ? <Badge tone="amber">kgShuffle (seed {config.kgShuffle.seed})</Badge> : null}
      {offDefaults.length ? <span className="text-slate-600">Off the paper&apos;s defaults:</span> : null}
      {offDefaults.map((p) => (
        <Badge key={p.name} tone="amber" title={`${p.name} is ${JSON.stringify(p.value)} here; the paper's default is ${JSON.stringify(p.paper)}`}>
          <span data-param={p.name}>
            {p.name} {p.value === false ? 'off' : JSON.stringify(p.value)} (paper: {p.paper === true ? 'on' : JSON.stringify(p.paper)})
          </span>
        </Badge>
      ))}
    </div>
  );
}

function Cost({ run, liveMs }: { run: RunView; liveMs: number | null }) {
  const c = run.cost;
  if (!c) return null;
  const totals = tokenTotals(run.calls);
  const estimated = totals.tokensEstimated;
  const tokensIn = estimated ? totals.tokensIn : c.tokensIn;
  const tokensOut = estimated ? totals.tokensOut : c.tokensOut;
  const approx = estimated ? '≈' : '';
  return (
    <details className="group text-sm" data-testid="run-cost">
      <summary className="cursor-pointer list-none text-slate-700 select-none">
        <span className="mr-1 inline-block transition-transform group-open:rotate-90" aria-hidden>
          ▸
        </span>
        Cost: <strong className="tabular-nums">{formatCount(c.modelCalls)}</strong> model call{c.modelCalls === 1 ? '' : 's'}
        {c.cachedCalls ? ` (${c.cachedCalls} cached)` : ''} ·{' '}
        <strong className="tabular-nums" data-testid="cost-tokens-in" data-estimated={estimated ? 'true' : 'false'}>
          {approx}
          {formatCount(tokensIn)}
        </strong>{' '}
        tokens in ·{' '}
        <strong className="tabular-nums">
          {approx}
          {formatCount(tokensOut)}
        </strong>{' '}
        out{estimated ? <span className="text-amber-800"> (estimated: the offline engine reports none)</span> : null} ·{' '}
        <strong className="tabular-nums">{formatMs(liveMs ?? c.wallMs)}</strong> wall time{liveMs !== null ? ' so far' : ''}
        <span className="text-slate-500"> — per stage</span>
      </summary>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left text-xs tabular-nums">
          <caption className="sr-only">Cost per stage</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-3 font-semibold">
                Stage (step kind)
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-semibold">
                Steps
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-semibold">
                Model calls
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-semibold">
                Tokens in
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-semibold">
                Tokens out
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Time (summed)
              </th>
            </tr>
          </thead>
          <tbody>
            {c.stages.map((s) => (
              <tr key={s.stage} className="border-t border-slate-100">
                <td className="py-1 pr-3 font-mono">{s.stage}</td>
                <td className="py-1 pr-3 text-right">{s.steps}</td>
                <td className="py-1 pr-3 text-right">{s.modelCalls}</td>
                <td className="py-1 pr-3 text-right">{formatCount(s.tokensIn)}</td>
                <td className="py-1 pr-3 text-right">{formatCount(s.tokensOut)}</td>
                <td className="py-1 text-right">{formatMs(s.ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-1 text-xs text-slate-500">Stage times add up nested steps and parallel work, so they can exceed the wall time.</p>
      </div>
    </details>
  );
}

function Lineage({ run, runHref, compareHref }: Pick<RunHeaderProps, 'run' | 'runHref' | 'compareHref'>) {
  if (!run.parent && !run.children.length) return null;
  return (
    <div className="space-y-1 text-sm" data-testid="run-lineage">
      {run.parent ? (
        <p className="text-slate-700">
          Rerun of{' '}
          <Link className="font-medium text-blue-800 underline" href={runHref(run.parent)}>
            the parent run
          </Link>
          {run.configDiff?.length ? <> with {run.configDiff.map(describeChange).join('; ')}</> : null}
          {compareHref(run.parent, run) ? (
            <>
              {' · '}
              <Link className="font-medium text-blue-800 underline" href={compareHref(run.parent, run)!} data-testid="compare-with-parent">
                Compare with the parent
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
      {run.children.length ? (
        <div>
          <p className="text-slate-700">Reruns of this run:</p>
          <ul className="ml-4 list-disc">
            {run.children.map((c) => (
              <li key={c.id}>
                <Link className="text-blue-800 underline" href={runHref(c)}>
                  {c.configDiff?.length ? c.configDiff.map(describeChange).join('; ') : 'rerun'}
                </Link>{' '}
                <span className="text-slate-500">({statusLabel(c.status)})</span>
                {compareHref(run, c) ? (
                  <>
                    {' · '}
                    <Link className="text-blue-800 underline" href={compareHref(run, c)!} data-testid="compare-with-child">
                      compare
                    </Link>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
