import { redactForClient } from '@/lib/base/redact';
import type { CellScore } from './aggregate';
import { getEvalJobView, isShared, type EvalJobView } from './read';
import { exportedItems, loadJob, type ExportedItem, type JobWhere } from './store';

export type { ExportedItem };

export async function exportItems(where: JobWhere): Promise<ExportedItem[]> {
  return redactForClient(await exportedItems(await loadJob(where), isShared(where)));
}

/** The JSON export: the page's data and every run. */
export async function exportJson(where: JobWhere): Promise<EvalJobView & { items: ExportedItem[] }> {
  const [view, items] = await Promise.all([getEvalJobView(where), exportItems(where)]);
  return { ...view, items };
}

const ITEM_COLUMNS = [
  'ordinal',
  'question_id',
  'question',
  'family',
  'answer_type',
  'gold',
  'method',
  'config',
  'run_id',
  'status',
  'correct',
  'abstained',
  'grounding',
  'steps',
  'iterations',
  'calls',
  'tokens_in',
  'tokens_out',
  'wall_ms',
  'answer',
  'error',
];

/** Behind a share link the run column holds share ids, and says so. */
export function itemsCsv(items: ExportedItem[], { shared = false } = {}): string {
  const rows = items.map((i) => {
    const o = i.outcome;
    return [
      i.ordinal,
      i.questionId,
      i.question,
      i.family,
      i.answerType,
      i.gold,
      i.method,
      i.config,
      i.runId,
      o?.status ?? 'pending',
      o?.correct,
      o?.abstained,
      o?.grounding,
      o?.steps,
      o?.iterations,
      o?.calls,
      o?.tokensIn,
      o?.tokensOut,
      o?.wallMs,
      o?.answer,
      o?.error,
    ];
  });
  return toCsv(shared ? ITEM_COLUMNS.map((c) => (c === 'run_id' ? 'run_share_id' : c)) : ITEM_COLUMNS, rows);
}

const SCORE_COLUMNS = [
  'method',
  'config',
  'items',
  'finished',
  'scored',
  'correct',
  'accuracy',
  'wrong',
  'abstained',
  'abstain_rate',
  'grounding',
  'errors',
  'avg_steps',
  'avg_iterations',
  'avg_calls',
  'avg_tokens_in',
  'avg_tokens_out',
  'avg_wall_ms',
];

export function scoresCsv(scores: CellScore[]): string {
  return toCsv(
    SCORE_COLUMNS,
    scores.map((s) => [
      s.method,
      s.config,
      s.items,
      s.finished,
      s.scored,
      s.correct,
      s.accuracy,
      s.wrong,
      s.abstained,
      s.abstainRate,
      s.grounding,
      s.errors,
      s.avgSteps,
      s.avgIterations,
      s.avgCalls,
      s.avgTokensIn,
      s.avgTokensOut,
      s.avgWallMs,
    ]),
  );
}

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled; empty for null. */
export function toCsv(header: string[], rows: unknown[][]): string {
  const field = (v: unknown) => {
    if (v === null || v === undefined) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export const EXPORT_TABLES = ['items', 'scores'] as const;

/** A download: CSV of the runs or of the scores table, or the whole evaluation as JSON. */
export async function evalExport(
  where: JobWhere,
  format: (typeof EXPORT_FORMATS)[number],
  table: (typeof EXPORT_TABLES)[number],
): Promise<{ filename: string; contentType: string; body: string }> {
  const stem = `evaluation-${'id' in where ? where.id : where.shareId}`;
  if (format === 'json') return { filename: `${stem}.json`, contentType: 'application/json', body: JSON.stringify(await exportJson(where), null, 2) };
  const body = table === 'scores' ? scoresCsv((await getEvalJobView(where)).summary.scores) : itemsCsv(await exportItems(where), { shared: isShared(where) });
  return { filename: `${stem}-${table}.csv`, contentType: 'text/csv; charset=utf-8', body };
}
