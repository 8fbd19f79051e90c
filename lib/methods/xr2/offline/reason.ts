import { solveFromEvidence } from '../../baselines/offline/solve';
import { linesOf, type ReasonInput, type ReasonOutput } from '../templates';

/** Offline Reason: the whole question answered from every line the step was shown (never from parametric claims). */
export function reasonFromEvidence(input: ReasonInput): ReasonOutput {
  const { solution: s } = solveFromEvidence(input.frame, linesOf(input));
  const kgLines = input.kg.reduce((n, u) => n + u.lines.length, 0);
  const lead = `Step ${input.t}: ${kgLines} KG line(s) of this step, ${input.established.length} of earlier steps.`;
  return {
    answer: s.items.length ? s.items : s.answer ? [s.answer] : [],
    optionKey: s.optionKey,
    count: s.count,
    abstain: s.abstain,
    rationale: `${lead} ${s.rationale}`,
    claims: s.claims,
    evidenceIds: [...new Set(s.claims.flatMap((c) => c.evidenceIds))],
  };
}
