import { z } from 'zod';
import { normalise } from '@/lib/llm/offline/text';

/**
 * The answer fields every answering role shares, so a multiple-choice answer has
 * one unambiguous field: `optionKey`, the letter. `answer` carries the option's
 * text beside it, never the letter alone.
 */
export const ANSWER_TEXT =
  'The answer: an entity name, a "; "-separated list, an integer or yes/no (for multiple choice: the chosen option\'s text; the letter goes in optionKey); empty when abstaining';

/**
 * What the question sets aside ("other than X", "except X"), as the answer names it: a field of its own, so an
 * excluded entity is stated once and never takes an answer slot (withoutExcluded drops it from the answer's names).
 */
export const excludedField = () =>
  z
    .array(z.string())
    .optional()
    .describe('Entities the question sets aside ("other than X", "except X", "excluding X"), as the evidence names them: never among the answer or its items');

/** The answer's names less those the answer itself set aside. */
export function withoutExcluded(names: string[], excluded: readonly string[] | undefined): string[] {
  const aside = new Set((excluded ?? []).map(normalise));
  return aside.size ? names.filter((n) => !aside.has(normalise(n))) : names;
}

export const optionKeyField = () =>
  z
    .string()
    .nullable()
    .describe('Multiple choice only: the letter of the chosen option (A, B, …). This field answers a multiple-choice question; null otherwise');
