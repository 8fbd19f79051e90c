import { describe, expect, it } from 'vitest';
import type { QuestionReading } from '../../lib/llm/offline/types';
import { askedFor } from '../../lib/methods/asked-for';

/** askedFor reads only the answer's kind and format. */
const reading = (outputFormat: QuestionReading['outputFormat'], answerKind: QuestionReading['answerKind']) => ({ outputFormat, answerKind }) as QuestionReading;

describe('what a question asks for, in words', () => {
  it('names the kind in the plural for lists and counts', () => {
    expect(askedFor(reading('list', 'Compound'))).toBe('the compounds that satisfy its constraints');
    expect(askedFor(reading('count', 'Gene'))).toBe('the number of distinct genes that satisfy its constraints');
  });

  it('says which kind an option names, and falls back to "entity" without a kind', () => {
    expect(askedFor(reading('option', 'Disease'))).toBe('the option that names the disease satisfying its constraints');
    expect(askedFor(reading('option', null))).toBe('the option that names the entity satisfying its constraints');
    expect(askedFor(reading('yesno', null))).toBe('a yes or no on whether a stated relation holds');
  });
});
