import { sumStageUsage, tallyStage, type StageTally } from '@/lib/llm/tokens';
import type { ModelResult } from '@/lib/llm/types';

/**
 * Model calls ("steps" in the paper's tables) and tokens per EIGEN-1 stage, so a
 * run can show where its tokens went (the paper's claim: monitored retrieval
 * costs fewer tokens than explicit retrieval). Every stage step returns its
 * usage in its output, so a resumed run, which replays outputs, counts the same.
 */

export const STAGES = [
  'generation',
  'monitor',
  'querier',
  'injector',
  'proposal',
  'correction',
  'refinement',
  'evaluation',
  'qair-correction',
  'ranking',
] as const;
export type Stage = (typeof STAGES)[number];

/** Tokens are chars/4 estimates (`estimated`) where the offline engine or a server reports none. */
export type StageUsage = StageTally<Stage>;

/** A stage's tally of its model results. */
export const usageOf: (stage: Stage, results: ModelResult<unknown>[]) => StageUsage = tallyStage;

/** Sums usages per stage, in the pipeline's stage order. */
export function totalUsage(usages: StageUsage[]): { stages: StageUsage[]; calls: number; tokensIn: number; tokensOut: number } {
  return sumStageUsage(STAGES, usages);
}
