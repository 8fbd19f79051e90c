import { tokenTotals, type CallTokens } from '@/lib/runs/call-tokens';
import { callTimings } from '@/lib/runs/view';
import type { ItemOutcome } from './schemas';
import { newlyFinishedRuns, storeItemOutcomes, type FinishedRun } from './store';

const ANSWER_CHARS = 500;

export type { FinishedRun };

/**
 * What an item keeps of its run. A failed or cancelled run counts as wrong
 * when its question has a gold answer (a method that crashes on hard questions
 * must not look better for it); a run without gold stays unscored (null).
 * Tokens are the run's call totals when given (estimates where the backend
 * reported none, flagged), else the stored cost's.
 */
export function outcomeOf(run: FinishedRun, hasGold: boolean, tokens?: CallTokens): ItemOutcome {
  const answer = (run.answer ?? {}) as { text?: unknown; abstained?: unknown; extra?: { iterations?: unknown } };
  const scores = (run.scores ?? {}) as { abstained?: unknown; grounding?: unknown };
  const cost = (run.cost ?? {}) as { modelCalls?: unknown; tokensIn?: unknown; tokensOut?: unknown; wallMs?: unknown };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const succeeded = run.status === 'succeeded';
  return {
    status: run.status,
    correct: succeeded ? run.correct : hasGold ? false : null,
    abstained: succeeded && (scores.abstained === true || answer.abstained === true),
    grounding: succeeded && typeof scores.grounding === 'number' ? scores.grounding : null,
    steps: run.steps,
    iterations: typeof answer.extra?.iterations === 'number' ? answer.extra.iterations : null,
    calls: num(cost.modelCalls),
    tokensIn: tokens ? tokens.tokensIn : num(cost.tokensIn),
    tokensOut: tokens ? tokens.tokensOut : num(cost.tokensOut),
    ...(tokens?.tokensEstimated ? { tokensEstimated: true } : {}),
    wallMs: Math.round(num(cost.wallMs)),
    answer: succeeded && typeof answer.text === 'string' ? answer.text.slice(0, ANSWER_CHARS) : null,
    error: run.error,
  };
}

/**
 * Copies the outcome of every newly finished run of a job onto its item.
 * Idempotent: an item with an outcome is never touched again, so a completed
 * item is never rerun or rescored after a restart.
 */
export async function recordFinishedRuns(jobId: string): Promise<number> {
  const runs = await newlyFinishedRuns(jobId);
  if (!runs.length) return 0;
  // The same token figures the run page shows: offline runs count estimates, labelled as such.
  const tokens = await Promise.all(runs.map(async (run) => tokenTotals(await callTimings(run.runId))));
  await storeItemOutcomes(runs.map((run, i) => ({ id: run.itemId, outcome: outcomeOf(run, run.hasGold, tokens[i]) })));
  return runs.length;
}
