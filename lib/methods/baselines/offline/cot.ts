import type { AnswerInput, CotSolution } from '../templates';
import { solveFromEvidence, type Derivation } from './solve';
import { askedFor } from '../../asked-for';

/**
 * Offline chain of thought: the steps the rules take, written out before the
 * answer (what is asked, what is named, the sub-steps, what the context holds,
 * the derivation). It states no fact the context does not hold.
 */
export function reasonStepByStep(input: AnswerInput): CotSolution {
  const lines = input.blocks.flatMap((b) => b.lines);
  const d: Derivation = solveFromEvidence(input.frame, lines);
  const { u } = d;
  const steps = [
    `The question asks for ${askedFor(u)}.`,
    input.frame.entities.length ? `It names ${input.frame.entities.map((e) => `${e.name} (${e.kind})`).join(', ')}.` : 'It names no entity I could link.',
    u.subquestions.length > 1 ? `In steps: ${u.subquestions.map((q, i) => `(${i + 1}) ${q}`).join(' ')}` : null,
    `The context holds ${input.blocks.map((b) => `${b.lines.length} ${b.title.toLowerCase()} line(s)`).join(', ') || 'nothing'}.`,
    ...d.result.rationale,
    d.stated ? `The passages decide it: ${d.stated.reason}.` : null,
    d.solution.abstain
      ? `The context does not support an answer (${d.result.reason}), so I abstain rather than guess.`
      : `So the answer is ${d.solution.answer}.`,
  ].filter((s): s is string => !!s);
  return { reasoning: steps.map((s, i) => `Step ${i + 1}: ${s}`).join('\n'), ...d.solution };
}
