import { answerFromSolution } from '../answer';
import type { MethodAnswer } from '../types';
import type { EvidenceLine } from './evidence';
import type { Solution } from './templates';

/** A baseline's solution as the run's answer, tied to the KG through the lines it was given. */
export function toMethodAnswer(s: Solution, lines: EvidenceLine[], extra: Record<string, unknown> = {}): MethodAnswer {
  return answerFromSolution(
    s,
    lines.flatMap((l) => l.triples),
    extra,
  );
}
