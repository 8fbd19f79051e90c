import { describe, expect, it } from 'vitest';
import { normaliseName } from '../../lib/kg/normalise';

describe('normaliseName', () => {
  it('lower-cases, folds accents and collapses punctuation', () => {
    expect(normaliseName("Alzheimer's disease")).toBe('alzheimer s disease');
    expect(normaliseName('  Sjögren  syndrome ')).toBe('sjogren syndrome');
    expect(normaliseName('breast cancer 1, early onset')).toBe('breast cancer 1 early onset');
    expect(normaliseName('BRCA1')).toBe('brca1');
  });

  it('spells Greek letters so both spellings meet', () => {
    expect(normaliseName('TNF-α')).toBe(normaliseName('TNF alpha'));
  });
});
