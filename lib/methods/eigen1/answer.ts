import { normalise } from '@/lib/llm/offline/text';
import type { MethodAnswer } from '../types';
import { citedIds, type Candidate } from './candidate';

/** The selected candidate as the run's answer; answer names are tied to KG node ids through the triples it cites. */
export function toMethodAnswer(c: Candidate, extra: Record<string, unknown>): MethodAnswer {
  const s = c.solution;
  const names = s.items.length ? s.items : s.answer ? [s.answer] : [];
  const ends = new Map(c.evidence.flatMap((e) => e.triples.flatMap((t) => [[normalise(t.sourceName), t.sourceId], [normalise(t.targetName), t.targetId]] as const)));
  const nodeIds = [...new Set(names.flatMap((n) => (ends.has(normalise(n)) ? [ends.get(normalise(n))!] : [])))];
  return {
    text: s.answer,
    optionKey: s.optionKey,
    items: s.items,
    nodeIds,
    count: s.count,
    abstained: s.abstain,
    evidenceIds: citedIds(s),
    claims: s.claims,
    rationale: s.rationale,
    extra,
  };
}
