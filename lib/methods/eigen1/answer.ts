import { answerFromSolution } from '../answer';
import type { MethodAnswer } from '../types';
import type { Candidate } from './candidate';

/** The selected candidate as the run's answer, tied to the KG through the triples of its evidence. */
export function toMethodAnswer(c: Candidate, extra: Record<string, unknown>): MethodAnswer {
  return answerFromSolution(
    c.solution,
    c.evidence.flatMap((e) => e.triples),
    extra,
  );
}
