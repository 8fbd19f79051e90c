import { normalise } from '@/lib/llm/offline/text';
import type { MethodAnswer } from '../types';
import type { EvidenceLine } from './evidence';
import type { Solution } from './templates';

/** A solution as the run's answer; names are tied to KG node ids through the triples of the lines it was given. */
export function toMethodAnswer(s: Solution, lines: EvidenceLine[], extra: Record<string, unknown> = {}): MethodAnswer {
  const names = s.items.length ? s.items : s.answer ? [s.answer] : [];
  const ends = new Map(lines.flatMap((l) => l.triples.flatMap((t) => [[normalise(t.sourceName), t.sourceId], [normalise(t.targetName), t.targetId]] as const)));
  const nodeIds = [...new Set(names.flatMap((n) => (ends.has(normalise(n)) ? [ends.get(normalise(n))!] : [])))];
  return {
    text: s.answer,
    optionKey: s.optionKey,
    items: s.items,
    nodeIds,
    count: s.count,
    abstained: s.abstain,
    evidenceIds: [...new Set(s.claims.flatMap((c) => c.evidenceIds))],
    claims: s.claims,
    rationale: s.rationale,
    extra,
  };
}
