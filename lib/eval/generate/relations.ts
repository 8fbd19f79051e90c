import type { DirectionFilter } from '@/lib/kg';
import { isConcept, type KindConcept } from '@/lib/kg/relations';
import { kindOf, metaedges } from '@/lib/llm/offline/metaedges';

/**
 * The question families' patterns are written in relation senses and kind
 * concepts ("a compound treats a disease"), not in one graph's codes; these
 * find the loaded graph's metaedge for each step.
 */

/** A step of a pattern: from a node of `from` over a relation meaning `sense` to a node of `to`. */
export interface SenseStep {
  from: KindConcept;
  sense: string;
  to: KindConcept;
}

/** The loaded graph's metaedge for a step and the direction it is walked in ('out': from its source); null when the graph has none. */
export function resolveStep(step: SenseStep): { metaedge: string; direction: DirectionFilter } | null {
  const [from, to] = [kindOf(step.from), kindOf(step.to)];
  if (!from || !to) return null;
  const m = metaedges().find(
    (e) =>
      e.sense === step.sense &&
      ((isConcept(e.source, step.from) && isConcept(e.target, step.to)) || (isConcept(e.source, step.to) && isConcept(e.target, step.from))),
  );
  if (!m) return null;
  if (from === to) return { metaedge: m.abbr, direction: 'both' };
  return { metaedge: m.abbr, direction: isConcept(m.source, step.from) ? 'out' : 'in' };
}

/** A chain of steps as a metapath ("GpPW:in|DaG:in"), or null when the graph lacks one of them. */
export function resolveChain(concepts: readonly (KindConcept | string)[]): string | null {
  const hops: string[] = [];
  for (let i = 0; i + 2 < concepts.length; i += 2) {
    const hop = resolveStep({ from: concepts[i] as KindConcept, sense: concepts[i + 1], to: concepts[i + 2] as KindConcept });
    if (!hop) return null;
    hops.push(`${hop.metaedge}:${hop.direction}`);
  }
  return hops.join('|');
}
