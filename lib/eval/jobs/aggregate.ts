import { attributionSummary, type AttributionSummary } from './buckets';
import type { GridConfig } from './grid';
import { cellKey, groupBy } from './group';
import type { ItemOutcome, ScoredItem } from './schemas';

/**
 * The evaluation tables, computed from items alone (pure, so a test or the
 * share page can recompute them): per method × configuration scores, the
 * per-family table with BioMedHop's Overall Avg, cost-vs-accuracy points and
 * X-R2's attribution buckets.
 */

export interface CellScore {
  method: string;
  config: string;
  /** Items of this method × configuration. */
  items: number;
  /** Items whose run has finished. */
  finished: number;
  /** Finished items that could be scored (the question has a gold answer). */
  scored: number;
  correct: number;
  /** correct / scored; null before any item is scored. */
  accuracy: number | null;
  /** Scored runs that gave an answer and got it wrong: abstentions and failed runs are not among them. */
  wrong: number;
  abstained: number;
  abstainRate: number | null;
  /** Mean grounding rate over answers that made claims; null when none did. */
  grounding: number | null;
  /** Failed or cancelled runs (counted as wrong when scored). */
  errors: number;
  avgSteps: number | null;
  /** Mean method-reported iterations (X-R2's "Avg. Steps"); null for one-pass methods. */
  avgIterations: number | null;
  avgCalls: number | null;
  avgTokensIn: number | null;
  avgTokensOut: number | null;
  /** Some runs' tokens are estimates (their backend reported none). */
  tokensEstimated: boolean;
  avgWallMs: number | null;
}

export interface FamilyColumn {
  family: string;
  /** Answer types (renderings) that family has, in display order. */
  answerTypes: string[];
}

export interface FamilyRow {
  method: string;
  config: string;
  /** family → answer type → accuracy (null: nothing scored yet). */
  cells: Record<string, Record<string, number | null>>;
  /** family → macro average over its answer types. */
  familyAvg: Record<string, number | null>;
  /** Mean of the family averages (BioMedHop's "Overall Avg."). */
  overallAvg: number | null;
}

export interface FamilyTable {
  columns: FamilyColumn[];
  rows: FamilyRow[];
}

export interface CostPoint {
  method: string;
  config: string;
  accuracy: number;
  avgCalls: number;
  avgTokens: number;
  /** The tokens are (partly) estimates. */
  tokensEstimated: boolean;
  avgWallMs: number;
}

/** Bumped when the summary's shape changes: a job's frozen summary of another version is recomputed from its items. */
export const SUMMARY_VERSION = 4;

export interface EvalSummary {
  version: number;
  scores: CellScore[];
  families: FamilyTable;
  cost: CostPoint[];
  /** Null when the grid has no full + single-channel-off (or doc-only) configurations to attribute with. */
  attribution: AttributionSummary | null;
}

const ANSWER_TYPE_ORDER = ['mcq', 'open', 'yesno', 'count', 'list'];
const NO_FAMILY = '(none)';

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const ratio = (a: number, b: number) => (b ? a / b : null);

/** Cells in the order the job lists methods and configurations. */
export function summarise(items: ScoredItem[], methods: string[], grid: GridConfig[]): EvalSummary {
  const configs = grid.map((g) => g.key);
  const byCell = groupBy(items, (i) => cellKey(i.method, i.configKey));
  const scores = methods.flatMap((method) => configs.map((config) => scoreCell(method, config, byCell.get(cellKey(method, config)) ?? [])));
  const families = familyTable(items, methods, configs);
  const cost = scores.flatMap((s) =>
    s.accuracy === null
      ? []
      : [
          {
            method: s.method,
            config: s.config,
            accuracy: s.accuracy,
            avgCalls: s.avgCalls ?? 0,
            avgTokens: (s.avgTokensIn ?? 0) + (s.avgTokensOut ?? 0),
            tokensEstimated: s.tokensEstimated,
            avgWallMs: s.avgWallMs ?? 0,
          },
        ],
  );
  return { version: SUMMARY_VERSION, scores, families, cost, attribution: attributionSummary(items, methods, grid) };
}

export function scoreCell(method: string, config: string, items: ScoredItem[]): CellScore {
  const finished = items.flatMap((i) => (i.outcome ? [i.outcome] : []));
  const scored = finished.filter((o) => o.correct !== null);
  const correct = scored.filter((o) => o.correct).length;
  const abstained = finished.filter((o) => o.abstained).length;
  const avg = (pick: (o: ItemOutcome) => number) => mean(finished.map(pick));
  const iterations = finished.flatMap((o) => (o.iterations === null ? [] : [o.iterations]));
  return {
    method,
    config,
    items: items.length,
    finished: finished.length,
    scored: scored.length,
    correct,
    accuracy: ratio(correct, scored.length),
    wrong: scored.filter((o) => o.correct === false && o.status === 'succeeded' && !o.abstained).length,
    abstained,
    abstainRate: ratio(abstained, finished.length),
    grounding: mean(finished.flatMap((o) => (o.grounding === null ? [] : [o.grounding]))),
    errors: finished.filter((o) => o.status !== 'succeeded').length,
    avgSteps: avg((o) => o.steps),
    avgIterations: mean(iterations),
    avgCalls: avg((o) => o.calls),
    avgTokensIn: avg((o) => o.tokensIn),
    avgTokensOut: avg((o) => o.tokensOut),
    tokensEstimated: finished.some((o) => o.tokensEstimated === true),
    avgWallMs: avg((o) => o.wallMs),
  };
}

/**
 * Accuracy per family and answer type; a family's average is the macro
 * average over its answer types (MCQ and open for entity families, CountEx
 * for counting) and Overall Avg is the mean of the family averages, as in
 * BioMedHop's Table 4.
 */
export function familyTable(items: ScoredItem[], methods: string[], configs: string[]): FamilyTable {
  const typesByFamily = new Map<string, Set<string>>();
  for (const i of items) {
    const family = i.family ?? NO_FAMILY;
    if (!typesByFamily.has(family)) typesByFamily.set(family, new Set());
    typesByFamily.get(family)!.add(i.answerType);
  }
  const columns = [...typesByFamily.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([family, types]) => ({ family, answerTypes: [...types].sort((a, b) => typeRank(a) - typeRank(b)) }));
  const byCell = groupBy(items, (i) => cellKey(i.method, i.configKey));
  const rows = methods.flatMap((method) =>
    configs.map((config) => {
      const cellItems = byCell.get(cellKey(method, config)) ?? [];
      const cells: FamilyRow['cells'] = {};
      const familyAvg: FamilyRow['familyAvg'] = {};
      for (const { family, answerTypes } of columns) {
        cells[family] = {};
        for (const type of answerTypes) {
          const scored = cellItems.filter((i) => (i.family ?? NO_FAMILY) === family && i.answerType === type && i.outcome && i.outcome.correct !== null);
          cells[family][type] = ratio(scored.filter((i) => i.outcome!.correct).length, scored.length);
        }
        familyAvg[family] = mean(Object.values(cells[family]).filter((v): v is number => v !== null));
      }
      const overallAvg = mean(Object.values(familyAvg).filter((v): v is number => v !== null));
      return { method, config, cells, familyAvg, overallAvg };
    }),
  );
  return { columns, rows };
}

const typeRank = (t: string) => (ANSWER_TYPE_ORDER.includes(t) ? ANSWER_TYPE_ORDER.indexOf(t) : ANSWER_TYPE_ORDER.length);
