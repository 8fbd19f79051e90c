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

describe('everyday disease names', () => {
  it('drops "mellitus" and the "disease" after an eponym, and nothing that would name something else', async () => {
    const { everydayNames } = await import('@/lib/kg/import/disease-ontology');
    expect(everydayNames('type 2 diabetes mellitus')).toEqual(['type 2 diabetes']);
    expect(everydayNames("Crohn's disease")).toEqual(["Crohn's"]);
    expect(everydayNames('Alzheimer’s disease')).toEqual(['Alzheimer’s']);
    expect(everydayNames('heart disease')).toEqual([]);
    expect(everydayNames('Down syndrome')).toEqual([]);
  });
});
