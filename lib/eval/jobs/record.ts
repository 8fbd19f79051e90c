import { getPool } from '@/lib/db/client';
import { tokenTotals, type CallTokens } from '@/lib/runs/call-tokens';
import { callTimings } from '@/lib/runs/view';
import { toJson } from '@/lib/base/json';
import type { ItemOutcome } from './schemas';

const ANSWER_CHARS = 500;

/** The stored columns of a finished run that an item keeps. */
export interface FinishedRun {
  status: 'succeeded' | 'failed' | 'cancelled';
  correct: boolean | null;
  answer: unknown;
  scores: unknown;
  cost: unknown;
  error: string | null;
  steps: number;
}

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
  const { rows } = await getPool().query<FinishedRun & { item_id: string; run_id: string; has_gold: boolean }>(
    `select i.id item_id, r.id run_id, r.status, r.correct, r.answer, r.scores, r.cost, r.error, q.answer is not null has_gold,
            (select count(*)::int from steps s where s.run_id = r.id and s.status <> 'skipped') steps
       from eval_items i
       join runs r on r.id = i.run_id
       join questions q on q.id = i.question_id
      where i.job_id = $1 and i.scores is null and r.status in ('succeeded', 'failed', 'cancelled')`,
    [jobId],
  );
  if (!rows.length) return 0;
  // The same token figures the run page shows: offline runs count estimates, labelled as such.
  const tokens = await Promise.all(rows.map(async (row) => tokenTotals(await callTimings(row.run_id))));
  const outcomes = rows.map((row, i) => {
    const outcome = outcomeOf(row, row.has_gold, tokens[i]);
    return { id: row.item_id, correct: outcome.correct, scores: toJson(outcome) };
  });
  // One statement for all of them.
  await getPool().query(
    `update eval_items i set correct = x.correct, scores = x.scores
       from jsonb_to_recordset($1::jsonb) as x(id text, correct boolean, scores jsonb)
      where i.id = x.id and i.scores is null`,
    [JSON.stringify(outcomes)],
  );
  return rows.length;
}
