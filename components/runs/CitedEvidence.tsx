'use client';

import { CHANNEL_COLORS } from '@/components/graph/colors';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import type { StepSummary } from '@/lib/runs/view';
import { citedIds, GIVEN_SHOWN, type ListedRecord, type RunHead } from './first-screen';

export interface CitedEvidenceProps {
  /** The first screen's part of the run: the records listed here, and the whole run's counts. */
  run: RunHead;
  onSelectEvidence: (id: string) => void;
  onSelectStep: (ordinal: number) => void;
  /** Moves the reader to the full evidence list (every record of the run, by channel). */
  onShowAll?: () => void;
}

/**
 * The answer's claims, each with the evidence records it cites and where each
 * came from (channel, reference, the step that retrieved it); unsupported
 * claims are marked. Compact, for the first screen; a record opens its full
 * provenance.
 */
export function CitedEvidence({ run, onSelectEvidence, onSelectStep, onShowAll }: CitedEvidenceProps) {
  const answer = run.answer;
  const claims = answer?.claims ?? [];
  const { inClaims, alsoCited } = citedIds(answer);
  const citedCount = new Set([...inClaims, ...alsoCited]).size;
  const evidenceById = new Map(run.evidence.map((e) => [e.id, e]));
  const stepsById = new Map(run.steps.map((s) => [s.id, s]));
  const row = (id: string) => (
    <EvidenceRow key={id} record={evidenceById.get(id)} stepsById={stepsById} onSelect={onSelectEvidence} onSelectStep={onSelectStep} />
  );
  return (
    <section
      aria-labelledby="cited-heading"
      className="flex min-h-48 flex-1 flex-col rounded-lg border border-slate-200 bg-white shadow-sm"
      data-testid="cited-evidence"
      data-cited={citedCount}
    >
      <header className="flex min-h-10 shrink-0 flex-wrap items-center justify-between gap-x-3 border-b border-slate-200 px-3 py-1.5">
        <h2 id="cited-heading" className="text-sm font-semibold text-slate-900">
          Evidence the answer cites{' '}
          <span className="font-normal text-slate-600">
            ({citedCount} of {run.evidenceCount} records)
          </span>
        </h2>
        {onShowAll && run.evidenceCount ? (
          <button type="button" onClick={onShowAll} className="text-xs font-medium text-blue-800 hover:underline">
            all evidence ↓
          </button>
        ) : null}
      </header>
      <div className="max-h-[70vh] min-h-0 flex-1 space-y-2 overflow-y-auto px-3 py-2 text-sm lg:max-h-none">
        {!answer ? (
          <p className="text-slate-600">
            {run.status === 'queued' || run.status === 'running'
              ? 'The evidence the answer rests on appears here when the method finishes.'
              : 'The run gave no answer, so it cites no evidence.'}
          </p>
        ) : citedCount === 0 && claims.length === 0 ? (
          <>
            <p className="text-slate-600" data-testid="cited-none">
              The answer cites no evidence record
              {run.selectedCount
                ? `. What the method was given (${run.selectedCount} selected of ${run.evidenceCount} recorded):`
                : run.evidenceCount
                  ? ` (the run recorded ${run.evidenceCount}, none selected).`
                  : ', and the run recorded none.'}
            </p>
            {run.evidence.length ? <ul className="space-y-1">{run.evidence.map((e) => row(e.id))}</ul> : null}
            {run.selectedCount > GIVEN_SHOWN ? (
              <p className="text-xs text-slate-500">and {run.selectedCount - GIVEN_SHOWN} more in the full evidence list below.</p>
            ) : null}
          </>
        ) : (
          <>
            {claims.length ? (
              <ol className="space-y-2" data-testid="claims">
                {claims.map((c, i) => {
                  const supported = c.evidenceIds.length > 0;
                  return (
                    <li
                      key={i}
                      data-testid="claim"
                      data-supported={supported ? 'true' : 'false'}
                      className={cn('rounded-md border px-2 py-1.5', supported ? 'border-slate-200' : 'border-amber-300 bg-amber-50')}
                    >
                      <p className="break-words text-slate-900">
                        {supported ? (
                          <span className="mr-1 text-emerald-700" aria-label="supported" title="Supported by the evidence cited below">
                            ✓
                          </span>
                        ) : (
                          <Badge tone="amber" className="mr-1.5" title="No evidence record supports this claim">
                            unsupported
                          </Badge>
                        )}
                        {c.text}
                      </p>
                      {supported ? <ul className="mt-1 space-y-1">{c.evidenceIds.map(row)}</ul> : null}
                    </li>
                  );
                })}
              </ol>
            ) : null}
            {alsoCited.length ? (
              <div>
                <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{claims.length ? 'Also cited' : 'Cited'}</h3>
                <ul className="mt-1 space-y-1">{alsoCited.map(row)}</ul>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

/** One cited record: its text, then where it came from (channel, kind, reference, the step that recorded it). */
function EvidenceRow({
  record,
  stepsById,
  onSelect,
  onSelectStep,
}: {
  record: ListedRecord | undefined;
  stepsById: ReadonlyMap<string, StepSummary>;
  onSelect: (id: string) => void;
  onSelectStep: (ordinal: number) => void;
}) {
  if (!record) return <li className="text-xs text-slate-500">a record this run does not hold</li>;
  const step = record.stepId ? stepsById.get(record.stepId) : undefined;
  return (
    <li className="rounded border-l-2 border-slate-200 pl-2" data-testid="cited-record" data-channel={record.channel}>
      <button
        type="button"
        onClick={() => onSelect(record.id)}
        className="flex w-full items-start gap-1 text-left text-xs text-slate-800 hover:text-blue-800"
        title={record.text}
        data-testid="cited-record-button"
      >
        <span
          aria-hidden
          className="mt-1 inline-block size-2 shrink-0 rounded-full"
          style={{ backgroundColor: (CHANNEL_COLORS as Record<string, string>)[record.channel] }}
        />
        <span className="shrink-0 font-mono text-slate-500">#{record.ordinal}</span>
        <span className="line-clamp-2 min-w-0 break-words hover:underline">{record.text}</span>
      </button>
      <p className="flex min-w-0 flex-wrap items-center gap-x-1.5 text-[11px] text-slate-500">
        <span>{record.channel}</span>
        <span aria-hidden>·</span>
        <span className="max-w-56 truncate font-mono" title={record.ref}>
          {record.ref}
        </span>
        {step ? (
          <>
            <span aria-hidden>·</span>
            <button
              type="button"
              onClick={() => onSelectStep(step.ordinal)}
              className="max-w-64 truncate text-blue-800 hover:underline"
              title={`Open the step that recorded it: ${step.label}`}
            >
              from {step.label}
            </button>
          </>
        ) : null}
      </p>
    </li>
  );
}
