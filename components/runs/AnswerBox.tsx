import { aidsOfAnswer } from '@/lib/channels/aid-names';
import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import type { RunBase, RunHead } from './first-screen';

/** Past this many characters the answer shows four lines and a toggle for the rest. */
const LONG_ANSWER_CHARS = 240;

export function goldOf(run: Pick<RunBase, 'input'>) {
  return run.input.gold;
}

/**
 * The answer box: the conclusion, why it abstained or may be partial (read from
 * the trace), which claims rest on cited evidence, and the latest K2V verdict.
 */
export function AnswerBox({ run, onShowVerification }: { run: RunHead; onShowVerification?: () => void }) {
  const a = run.answer;
  const gold = goldOf(run);
  const finished = run.status !== 'queued' && run.status !== 'running';
  const grounding = typeof run.scores?.grounding === 'number' ? run.scores.grounding : null;
  const why = run.explanation;
  const [showAll, setShowAll] = useState(false);
  const aids = aidsOfAnswer(a);
  // A rerun with a channel off says so beside its answer (an abstention's or a partial list's line already does).
  const offChannels = run.config ? (['kg', 'doc', 'entity', 'web', 'param'] as const).filter((c) => !run.config!.switches[c]) : [];
  const shown = !a || a.abstained || !a.text.trim() ? 'abstained (no answer)' : a.optionKey ? `${a.optionKey}. ${a.text}` : a.text;
  // A long answer (a list of a hundred genes) would push its evidence and limits off the first screen: four lines, then a toggle.
  const longAnswer = shown.length > LONG_ANSWER_CHARS;
  // The items, unless the answer itself is their list (a count's answer is a number: its items are listed here).
  const items = a?.items && a.items.length > 1 ? a.items : null;
  const listed = items !== null && a!.text.trim() === items.join('; ');
  const itemsLine = !items || (listed && longAnswer) ? null : listed ? `${items.length} items` : `${items.length} items: ${items.join('; ')}`;
  const longItems = (itemsLine?.length ?? 0) > LONG_ANSWER_CHARS;
  return (
    <section aria-label="Answer" className="min-h-16 rounded-md border border-slate-200 bg-slate-50 px-3 py-2" data-testid="run-answer-box">
      {run.status === 'failed' ? (
        <div role="alert" className="text-sm text-red-900">
          <p className="font-semibold">The run failed</p>
          <p className="break-words whitespace-pre-wrap" data-testid="run-error">
            {run.error ?? 'No reason was recorded.'}
          </p>
          <p className="mt-1 text-xs text-red-800">Completed steps are kept below.</p>
        </div>
      ) : run.status === 'cancelled' ? (
        <p className="text-sm text-amber-900">Cancelled{run.error ? `: ${run.error}` : ''}. Completed steps are kept below.</p>
      ) : !a ? (
        <p className="text-sm text-slate-600">
          {run.status === 'queued' ? `Waiting for ${run.waitingFor ?? 'a worker'} to pick the run up…` : 'The answer appears here when the method finishes.'}
        </p>
      ) : (
        <div className="space-y-1">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <span className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Answer</span>
            {longAnswer ? (
              a.items && a.items.length > 1 ? (
                <span className="text-lg font-semibold text-slate-900">{a.items.length} items</span>
              ) : null
            ) : (
              <span className="text-lg font-semibold break-words text-slate-900" data-testid="run-answer">
                {shown}
              </span>
            )}
            <Correctness correct={run.correct} abstained={a.abstained || !a.text.trim()} hasGold={!!gold} />
          </div>
          {longAnswer ? (
            <p
              className={cn('font-semibold break-words text-slate-900', !showAll && 'line-clamp-4')}
              data-testid="run-answer"
              data-expanded={showAll ? 'true' : 'false'}
            >
              {shown}
            </p>
          ) : null}
          {itemsLine ? (
            <p
              className={cn('text-sm break-words text-slate-700', longItems && !showAll && 'line-clamp-3')}
              data-testid="run-items"
              data-count={a.items!.length}
            >
              {itemsLine}
            </p>
          ) : null}
          {longAnswer || longItems ? (
            <button
              type="button"
              className="text-xs font-medium text-blue-800 underline"
              onClick={() => setShowAll((v) => !v)}
              aria-expanded={showAll}
              data-testid="run-answer-toggle"
            >
              {showAll ? 'Show less' : `Show the whole answer${a.items && a.items.length > 1 ? ` (${a.items.length} items)` : ''}`}
            </button>
          ) : null}
          {why.abstention ? (
            <p className="text-sm text-slate-800" data-testid="abstention-reason">
              <span className="font-semibold">Why no answer: </span>
              {why.abstention}
            </p>
          ) : null}
          {why.partial ? (
            <p
              className="rounded border border-amber-200 bg-amber-50 px-2 py-1 text-sm text-amber-950"
              data-testid="partial-note"
              data-caps={why.partial.caps.map((c) => c.param).join(',')}
            >
              {why.partial.line}
              {why.partial.caps.length ? (
                <span className="text-amber-800"> Raise {why.partial.caps.map((c) => c.param).join(' or ')} in a rerun to see more.</span>
              ) : null}
            </p>
          ) : null}
          {offChannels.length && !why.partial && !why.abstention ? (
            <p className="text-sm text-slate-700" data-testid="answer-switches-off">
              Answered with {offChannels.length === 1 ? 'this channel' : 'these channels'} switched off:{' '}
              <span className="font-medium">{offChannels.join(', ')}</span>.
            </p>
          ) : null}
          {aids ? (
            <p className="text-sm text-pink-900" data-testid="answer-aids" data-aids={aids.join(',')}>
              {aids.length ? (
                <>
                  Shaped by Hopscope aids (not the paper&apos;s method): <span className="font-medium">{aids.join(', ')}</span>.
                </>
              ) : (
                'Hopscope aids were on; none acted on this answer.'
              )}
            </p>
          ) : null}
          {gold && finished ? (
            <p className="text-sm text-slate-700" data-testid="run-gold">
              Gold: {gold.key ? `${gold.key}. ` : ''}
              {gold.text || (gold.count !== undefined ? String(gold.count) : (gold.list?.join('; ') ?? ''))}
            </p>
          ) : null}
          <p className="text-xs text-slate-600" data-testid="claims-summary" data-supported={why.claims.supported} data-unsupported={why.claims.unsupported}>
            {a.claims.length ? (
              <>
                <span className="text-emerald-800">
                  {why.claims.supported} claim{why.claims.supported === 1 ? '' : 's'} supported by cited evidence
                </span>
                {why.claims.unsupported ? (
                  <span className="font-medium text-amber-800"> · {why.claims.unsupported} unsupported (no evidence cited)</span>
                ) : null}
              </>
            ) : (
              'no claims'
            )}
            {' · '}
            {a.evidenceIds.length} evidence record{a.evidenceIds.length === 1 ? '' : 's'} cited
            {grounding !== null ? ` · grounding ${Math.round(grounding * 100)}%` : ''}
          </p>
          <VerificationLine run={run} onShow={onShowVerification} />
        </div>
      )}
    </section>
  );
}

function Correctness({ correct, abstained, hasGold }: { correct: boolean | null; abstained: boolean; hasGold: boolean }) {
  // An abstention is not a wrong answer: it scores as not correct, and says so.
  if (abstained && hasGold)
    return (
      <Badge tone="amber">
        <span data-testid="run-correct" data-correct="abstained" title="No answer was given; accuracy counts it as not correct">
          ∅ abstained
        </span>
      </Badge>
    );
  if (correct === true)
    return (
      <Badge tone="green">
        <span data-testid="run-correct" data-correct="true">
          ✓ correct
        </span>
      </Badge>
    );
  if (correct === false)
    return (
      <Badge tone="red">
        <span data-testid="run-correct" data-correct="false">
          ✗ incorrect
        </span>
      </Badge>
    );
  return (
    <span className="text-xs text-slate-500" data-testid="run-correct" data-correct="unknown">
      {hasGold ? 'not scored' : 'no gold answer to score against'}
    </span>
  );
}

/** The latest K2V verification in one line (the checklist grid is below the first screen). */
function VerificationLine({ run, onShow }: { run: RunBase; onShow?: () => void }) {
  const v = run.verifications[0];
  if (!v) return null;
  const rewards = Object.entries(v.rewards).flatMap(([name, value]) => (value === null ? [] : [`R_${name} ${value.toFixed(2)}`]));
  return (
    <p className="text-xs text-violet-900" data-testid="k2v-summary" data-pass-rate={v.passRate}>
      <span className="font-semibold">K2V v{v.version}:</span> checklist pass rate {Math.round(v.passRate * 100)}%
      {rewards.length ? ` · ${rewards.join(' · ')}` : ''}
      {onShow ? (
        <>
          {' · '}
          <button type="button" onClick={onShow} className="font-medium text-violet-800 underline">
            criteria and verdicts
          </button>
        </>
      ) : null}
    </p>
  );
}
