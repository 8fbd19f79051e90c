/**
 * K2V's reward composition (k2v.txt §2.3, eq. 8): R = R_format + R_answer + R_reasoning,
 * with R_answer = α·1[correct] (paper: α = 6) and R_reasoning = the checklist pass rate p.
 * The paper's format reward peaks at 0.75 for its DeepSeek-R1 template; a run here
 * either produced a well-formed answer or not, so R_format is formatReward (default
 * the paper's maximum, 0.75) or 0. p is over the instantiated checklist only (the
 * general criteria are reported apart).
 *
 * The answer-gated form counts the reasoning reward only when the answer is
 * correct: R = R_format + 1[correct]·(α + p). The paper states only the plain
 * sum; the gate is the guard its "w/o Answer Verification" ablation (§3.3)
 * motivates, where a reasoning reward without the answer signal was hacked by
 * ever longer outputs.
 */

/** R_format of a well-formed answer: the paper's maximum. */
export const FORMAT_REWARD = 0.75;

export interface RewardInputs {
  wellFormed: boolean;
  /** null: no gold answer, so the answer reward is unknown. */
  correct: boolean | null;
  passRate: number;
  alpha: number;
  formatReward: number;
}

export interface Rewards {
  format: number;
  answer: number | null;
  reasoning: number;
  /** R_format + α·1[correct] + p; null without a gold answer. */
  plain: number | null;
  /** R_format + 1[correct]·(α + p); null without a gold answer. */
  gated: number | null;
}

export function k2vRewards(i: RewardInputs): Rewards {
  const format = i.wellFormed ? i.formatReward : 0;
  if (i.correct === null) return { format, answer: null, reasoning: i.passRate, plain: null, gated: null };
  const answer = i.correct ? i.alpha : 0;
  return { format, answer, reasoning: i.passRate, plain: format + answer + i.passRate, gated: format + (i.correct ? i.alpha + i.passRate : 0) };
}

/** p = (1/k)·Σ v_i (k2v.txt eq. 5); an empty checklist passes nothing. */
export function passRate(verdicts: ('yes' | 'no')[]): number {
  return verdicts.length ? verdicts.filter((v) => v === 'yes').length / verdicts.length : 0;
}
