import { z } from 'zod';

/**
 * The answer fields every answering role shares, so a multiple-choice answer has
 * one unambiguous field: `optionKey`, the letter. `answer` carries the option's
 * text beside it, never the letter alone.
 */
export const ANSWER_TEXT =
  'The answer: an entity name, a "; "-separated list, an integer or yes/no (for multiple choice: the chosen option\'s text; the letter goes in optionKey); empty when abstaining';

export const optionKeyField = () =>
  z
    .string()
    .nullable()
    .describe('Multiple choice only: the letter of the chosen option (A, B, …). This field answers a multiple-choice question; null otherwise');
