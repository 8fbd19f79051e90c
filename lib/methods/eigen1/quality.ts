/** QAIR's composite quality (eigen1.txt §3.3): the answer dimension weighs most. */

export interface QualityScores {
  logic: number;
  answer: number;
  explanation: number;
}

export interface QualityWeights {
  wLogic: number;
  wAnswer: number;
  wExplanation: number;
}

export interface Quality {
  scores: QualityScores;
  q: number;
  passed: boolean;
}

/** q = w_l·logic + w_a·answer + w_e·explanation (paper: 0.2, 0.6, 0.2), each score clamped to 0–5; passes when q ≥ τ. */
export function qualityOf(scores: QualityScores, weights: QualityWeights, tau: number): Quality {
  const clamp = (v: number) => Math.min(5, Math.max(0, v));
  const s = { logic: clamp(scores.logic), answer: clamp(scores.answer), explanation: clamp(scores.explanation) };
  const q = round(weights.wLogic * s.logic + weights.wAnswer * s.answer + weights.wExplanation * s.explanation);
  return { scores: s, q, passed: q >= tau };
}

// Rounded so 0.2·3 + 0.6·3 + 0.2·3 is exactly 3 and passes τ = 3, as the formula means.
function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
