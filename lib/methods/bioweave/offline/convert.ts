import { extractEvidenceUnits } from '@/lib/llm/offline/passages';
import type { Conversion, ConversionInput } from '../templates';
import { textHops } from '../units';
import { onePerNode } from '@/lib/base/distinct';

/**
 * ConvertEvidenceGraph without a model: the kit's sentence units (candidate
 * entities by name or alias, the relation phrase that fits their kinds, a
 * negation cue), one unit per span.
 */
export function convertSpansOffline(input: ConversionInput): Conversion {
  const unused: string[] = [];
  const units = input.spans.flatMap((span) => {
    const found = extractEvidenceUnits({ id: span.spanId, text: span.text }, input.candidates);
    const entities = onePerNode(found.flatMap((u) => u.entities));
    const predicate = found.find((u) => u.predicate)?.predicate ?? null;
    const relations = predicate?.metaedges ?? [];
    const hops = textHops(input.plan, entities, relations);
    if (!entities.length && input.candidates.length) {
      unused.push(span.spanId);
      return [];
    }
    return [
      {
        spanId: span.spanId,
        entityIds: entities.map((e) => e.nodeId),
        predicate: predicate?.phrase ?? null,
        relations,
        hop: hops[0] ?? null,
        negated: found.some((u) => u.negated),
      },
    ];
  });
  return { units, unused, notes: 'offline engine: kit sentence units (names and aliases of the candidates, relation-cue lexicon, negation cue)' };
}
