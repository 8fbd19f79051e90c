import type { ScoredItem } from './schemas';
import { cellKey, groupBy } from './group';

/**
 * The attribution matrix: one row per question, one column per method ×
 * configuration, each cell the outcome of one run and a link to it (pure).
 */

export const CELL_STATES = ['pending', 'running', 'correct', 'wrong', 'abstained', 'unscored', 'error'] as const;
export type CellState = (typeof CELL_STATES)[number];

export interface MatrixColumn {
  method: string;
  config: string;
}

export interface MatrixCell {
  runId: string | null;
  state: CellState;
}

export interface MatrixQuestion {
  questionId: string;
  ordinal: number;
  text: string;
  family: string | null;
  answerType: string;
}

export interface MatrixRow extends MatrixQuestion {
  /** Aligned with the matrix columns. */
  cells: MatrixCell[];
}

/** An abstention is wrong for accuracy, but the matrix tells it apart, as it does runs that failed. */
export function cellState(item: Pick<ScoredItem, 'runId' | 'outcome'> | undefined): CellState {
  if (!item || !item.outcome) return item?.runId ? 'running' : 'pending';
  const o = item.outcome;
  if (o.status !== 'succeeded') return 'error';
  if (o.abstained) return 'abstained';
  return o.correct === null ? 'unscored' : o.correct ? 'correct' : 'wrong';
}

export function matrixColumns(methods: string[], configs: string[]): MatrixColumn[] {
  return methods.flatMap((method) => configs.map((config) => ({ method, config })));
}

export function matrixRows(questions: MatrixQuestion[], items: ScoredItem[], columns: MatrixColumn[]): MatrixRow[] {
  const byQuestion = groupBy(items, (i) => i.questionId);
  return questions.map((q) => {
    const cells = new Map((byQuestion.get(q.questionId) ?? []).map((i) => [cellKey(i.method, i.configKey), i]));
    return {
      ...q,
      cells: columns.map((c) => {
        const item = cells.get(cellKey(c.method, c.config));
        return { runId: item?.runId ?? null, state: cellState(item) };
      }),
    };
  });
}
