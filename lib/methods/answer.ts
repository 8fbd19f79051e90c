import type { DerivedSolution } from '@/lib/llm/offline/solution';
import { normalise } from '@/lib/llm/offline/text';
import { withoutExcluded } from '@/lib/llm/templates/answer-fields';
import type { MethodAnswer } from './types';

export interface NamedTriple {
  sourceId: string;
  sourceName: string;
  targetId: string;
  targetName: string;
}

/**
 * A solution as the run's answer: every cited evidence id, and the answer's
 * names tied to KG node ids through the triples the method was shown (a name
 * no shown triple carries gets no node id rather than a guessed one).
 */
export function answerFromSolution(s: DerivedSolution, shownTriples: NamedTriple[], extra: Record<string, unknown> = {}): MethodAnswer {
  const items = withoutExcluded(s.items, s.excluded);
  const names = withoutExcluded(s.items.length ? s.items : s.answer ? [s.answer] : [], s.excluded);
  const nodeIds = nodeIdsFor(names, shownTriples);
  return {
    text: items.length < s.items.length ? items.join('; ') : s.answer,
    optionKey: s.optionKey,
    items,
    nodeIds,
    count: s.count,
    abstained: s.abstain,
    evidenceIds: [...new Set(s.claims.flatMap((c) => c.evidenceIds))],
    claims: s.claims,
    rationale: s.rationale,
    extra,
  };
}

/** The KG node ids of answer names, through the end nodes of the triples shown. */
export function nodeIdsFor(names: string[], shownTriples: NamedTriple[]): string[] {
  const ends = new Map(
    shownTriples.flatMap(
      (t) =>
        [
          [normalise(t.sourceName), t.sourceId],
          [normalise(t.targetName), t.targetId],
        ] as const,
    ),
  );
  return [...new Set(names.flatMap((n) => (ends.has(normalise(n)) ? [ends.get(normalise(n))!] : [])))];
}
