/**
 * The region as a hard boundary, enforced on what a role returns rather than
 * only asked for in its prompt: cited evidence must be the region's (facts
 * and accepted hypotheses), named entities must be in V_q. What falls outside
 * is dropped and reported.
 */

import { entityIn } from './region';
import type { RegionEntity } from './templates';

export const GENERAL_KNOWLEDGE = 'Based on general knowledge';

export interface Outside {
  items: string[];
  evidenceIds: string[];
}

export interface Bounded<A> {
  answer: A;
  /** The named entities, resolved to region nodes. */
  entities: RegionEntity[];
  outside: Outside;
}

/** An answer held to the region: citations and named entities inside it, the text rewritten when an outside entity was dropped. */
export function holdToRegion<A extends { answer: string; items: string[]; abstain: boolean; rationale: string }>(
  answer: A,
  cited: string[],
  region: { entities: RegionEntity[]; evidenceIds: Set<string> },
): Bounded<A> & { cited: string[] } {
  const inside = cited.filter((id) => region.evidenceIds.has(id));
  const outside: Outside = { items: [], evidenceIds: cited.filter((id) => !region.evidenceIds.has(id)) };
  const entities: RegionEntity[] = [];
  for (const item of answer.items) {
    const e = entityIn(region.entities, item);
    if (!e) outside.items.push(item);
    else if (!entities.some((x) => x.nodeId === e.nodeId)) entities.push(e);
  }
  if (answer.abstain || !outside.items.length) return { answer, entities, outside, cited: inside };
  const note = `Dropped as outside the region: ${outside.items.join(', ')}.`;
  const kept = entities.map((e) => e.name);
  const bounded = kept.length
    ? { ...answer, answer: kept.join('; '), items: kept, rationale: `${answer.rationale} ${note}`.trim() }
    : {
        ...answer,
        answer: '',
        items: [],
        abstain: true,
        rationale: `${answer.rationale} ${note} Every entity the answer named lies outside the region.`.trim(),
      };
  return { answer: bounded, entities, outside, cited: inside };
}

/** An LLM-GUESS answer says where it comes from and cites nothing. */
export function asGeneralKnowledge<A extends { answer: string; abstain: boolean }>(answer: A): A {
  if (answer.abstain || answer.answer.startsWith(GENERAL_KNOWLEDGE)) return answer;
  return { ...answer, answer: `${GENERAL_KNOWLEDGE}: ${answer.answer}` };
}
