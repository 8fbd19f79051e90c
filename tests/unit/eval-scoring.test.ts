import { describe, expect, it } from 'vitest';
import { GoldAnswerSchema, groundingRate, isAbstention, optionKeyIn, scoreAnswer } from '@/lib/eval/scoring';
import type { AnswerType, MethodAnswer } from '@/lib/methods/types';

const answer = (fields: Partial<MethodAnswer>): MethodAnswer => ({ text: '', abstained: false, evidenceIds: [], claims: [], ...fields });
const gold = (fields: Record<string, unknown>) => GoldAnswerSchema.parse(fields);
const score = (type: AnswerType, g: Record<string, unknown>, a: Partial<MethodAnswer>, options: Record<string, string> | null = null) =>
  scoreAnswer(type, gold(g), answer(a), options);

describe('open answers', () => {
  const metformin = { text: 'Metformin', aliases: ['Glucophage', 'dimethylbiguanide'], nodeIds: ['Compound::DB00331'] };

  it('accepts the gold name or any alias after normalisation', () => {
    expect(score('open', metformin, { text: 'metformin' }).correct).toBe(true);
    expect(score('open', metformin, { text: '  GLUCOPHAGE. ' }).correct).toBe(true);
    expect(score('open', metformin, { text: '"Dimethylbiguanide"' }).correct).toBe(true);
  });

  it('does not accept a longer name that only contains the gold one', () => {
    expect(score('open', metformin, { text: 'metformin hydrochloride' }).correct).toBe(false);
    expect(score('open', metformin, { text: 'glucophage xr' }).correct).toBe(false);
  });

  it('accepts the linked gold node whatever the spelling of the text', () => {
    expect(score('open', metformin, { text: 'Metformine', nodeIds: ['Compound::DB00331'] }).correct).toBe(true);
    expect(score('open', metformin, { text: 'Metformine', nodeIds: ['Compound::DB00945'] }).correct).toBe(false);
  });

  it('folds accents and case on both sides', () => {
    expect(score('open', { text: 'Sjögren syndrome' }, { text: 'sjogren SYNDROME' }).correct).toBe(true);
  });

  it('scores yes/no answers as open answers', () => {
    expect(score('yesno', { text: 'yes' }, { text: 'Yes.' }).correct).toBe(true);
    expect(score('yesno', { text: 'yes' }, { text: 'no' }).correct).toBe(false);
  });
});

describe('MCQ answers', () => {
  const options = { A: 'Aspirin', B: 'A disintegrin and metalloproteinase', C: 'Metformin', D: 'Insulin', E: 'Warfarin' };

  it('reads the chosen letter in its usual spellings', () => {
    for (const text of ['C', 'c', '(C)', 'C.', 'C) Metformin', 'Answer: C'])
      expect(score('mcq', { key: 'C', text: 'Metformin' }, { text }, options).correct).toBe(true);
    expect(score('mcq', { key: 'C', text: 'Metformin' }, { text: 'D' }, options).correct).toBe(false);
  });

  it('accepts the text of the gold option', () => {
    expect(score('mcq', { key: 'C', text: 'Metformin' }, { text: 'metformin' }, options).correct).toBe(true);
    expect(score('mcq', { key: 'C', text: 'Metformin' }, { text: 'insulin' }, options).correct).toBe(false);
  });

  it('prefers the stated option key over the text', () => {
    expect(score('mcq', { key: 'C', text: 'Metformin' }, { text: 'Metformin', optionKey: 'D' }, options).correct).toBe(false);
  });

  it('reads an option whose text starts with the article "A" as that option, not as letter A', () => {
    expect(optionKeyIn('A disintegrin and metalloproteinase', options)).toBe('B');
    expect(score('mcq', { key: 'B', text: options.B }, { text: 'A disintegrin and metalloproteinase' }, options).correct).toBe(true);
  });

  it('does not take a word that begins with an option letter for the letter', () => {
    expect(optionKeyIn('Both are plausible', options)).toBeNull();
  });
});

describe('count answers (CountEx)', () => {
  it('compares the stated integer with the gold count', () => {
    expect(score('count', { count: 3 }, { text: '3', count: 3 }).correct).toBe(true);
    expect(score('count', { count: 3 }, { text: 'There are 3 genes.' }).correct).toBe(true);
    expect(score('count', { count: 0 }, { text: '0', count: 0 }).correct).toBe(true);
    expect(score('count', { count: 3 }, { text: '4', count: 4 }).correct).toBe(false);
  });

  it('penalises a count that includes duplicates of one entity', () => {
    const g = { count: 2, list: ['IL6', 'TNF'] };
    // The method deduplicated IL6 / il6 / IL-6 before counting: right.
    expect(score('count', g, { text: '2', count: 2, items: ['IL6', 'il6', 'TNF'] }).correct).toBe(true);
    // It counted every mention: wrong, whatever the list behind it.
    expect(score('count', g, { text: '3', count: 3, items: ['IL6', 'il6', 'TNF'] }).correct).toBe(false);
  });

  it('scores a number written in words as wrong, not as an abstention', () => {
    const s = score('count', { count: 3 }, { text: 'three' });
    expect(s).toMatchObject({ correct: false, abstained: false });
  });
});

describe('list answers (X-R2 tasks)', () => {
  const g = { text: 'BRCA1; TP53', list: ['BRCA1', 'TP53'] };

  it('needs every gold item among the predicted ones (Gold ⊆ Pred)', () => {
    expect(score('list', g, { text: 'tp53, BRCA1, EGFR', items: ['tp53', 'BRCA1', 'EGFR'] }).correct).toBe(true);
    expect(score('list', g, { text: 'BRCA1', items: ['BRCA1'] }).correct).toBe(false);
  });

  it('splits a plain-text list when the method gives no items', () => {
    expect(score('list', g, { text: 'BRCA1, TP53' }).correct).toBe(true);
    expect(score('list', g, { text: 'BRCA1; EGFR' }).correct).toBe(false);
  });

  it('is not fooled by duplicated predictions', () => {
    expect(score('list', g, { text: 'BRCA1', items: ['BRCA1', 'brca1', ' BRCA1 '] }).correct).toBe(false);
    expect(score('list', g, { text: 'x', items: ['BRCA1', 'brca1', 'TP53', 'tp53'] }).correct).toBe(true);
  });

  it('field tasks accept overlap or a substring either way', () => {
    const field = { text: 'molecular biology', list: ['molecular biology'], field: true };
    expect(score('list', field, { text: 'biology', items: ['biology'] }).correct).toBe(true);
    expect(score('list', field, { text: 'x', items: ['molecular biology and genetics'] }).correct).toBe(true);
    expect(score('list', field, { text: 'chemistry', items: ['chemistry'] }).correct).toBe(false);
  });
});

describe('empty answers and abstentions', () => {
  it('an empty or blank answer abstains, and counts as incorrect', () => {
    for (const type of ['open', 'mcq', 'count', 'list'] as const) {
      expect(score(type, { text: 'x', key: 'A', count: 1, list: ['x'] }, { text: '' })).toMatchObject({ correct: false, abstained: true });
      expect(score(type, { text: 'x', key: 'A', count: 1, list: ['x'] }, { text: '   ' })).toMatchObject({ correct: false, abstained: true });
    }
  });

  it('explicit abstentions abstain, whatever their punctuation', () => {
    for (const text of ["I don't know", 'Unknown.', 'cannot be determined', 'Insufficient evidence', 'N/A'])
      expect(isAbstention({ text, abstained: false })).toBe(true);
    expect(isAbstention({ text: 'Metformin', abstained: true })).toBe(true);
    expect(isAbstention({ text: 'unknown primary tumour', abstained: false })).toBe(false);
  });

  it('an abstention is never correct, even when its text equals the gold answer', () => {
    expect(score('open', { text: 'unknown' }, { text: 'unknown' })).toMatchObject({ correct: false, abstained: true });
  });
});

describe('grounding rate', () => {
  it('is the share of claims with evidence, and null without claims', () => {
    expect(groundingRate({ claims: [] })).toBeNull();
    expect(
      groundingRate({
        claims: [
          { text: 'a', evidenceIds: ['e1'] },
          { text: 'b', evidenceIds: [] },
        ],
      }),
    ).toBe(0.5);
    expect(score('open', { text: 'x' }, { text: 'x', claims: [{ text: 'x', evidenceIds: ['e1', 'e2'] }] }).grounding).toBe(1);
  });
});
