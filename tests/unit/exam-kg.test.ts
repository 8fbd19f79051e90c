import { describe, expect, it } from 'vitest';
import { decidedByKg, namedNodes, optionNodes, partOf, type NameIndex } from '../../lib/eval/exam-kg';

// A hand-made name index: names match in any case, symbols only as written.
const index: NameIndex = new Map([
  ['rheumatoid arthritis', [{ nodeId: 'Disease::RA', symbol: null }]],
  ['arthritis', [{ nodeId: 'Side Effect::ARTH', symbol: null }]],
  ['methotrexate', [{ nodeId: 'Compound::MTX', symbol: null }]],
  ['met', [{ nodeId: 'Gene::MET', symbol: 'MET' }]],
  ['tnf alpha', [{ nodeId: 'Gene::TNF', symbol: 'TNF-alpha' }]],
]);

describe('exam MCQs the KG decides: names in a stem', () => {
  it('finds every exact name, short ones inside long ones included, in any case and spacing', () => {
    const found = namedNodes('A woman with RHEUMATOID   arthritis was started on Methotrexate.', index);
    expect(found.sort()).toEqual(['Compound::MTX', 'Disease::RA', 'Side Effect::ARTH']);
  });

  it('reads a symbol only in its own case, whatever punctuation joins its parts', () => {
    expect(namedNodes('She met her doctor.', index)).toEqual([]);
    expect(namedNodes('MET amplification and TNF alpha levels', index).sort()).toEqual(['Gene::MET', 'Gene::TNF']);
  });

  it('takes an option as its nodes only when its whole text is a name', () => {
    expect(optionNodes('Methotrexate', index)).toEqual(['Compound::MTX']);
    expect(optionNodes('Methotrexate weekly', index)).toEqual([]);
    expect(optionNodes('met', index)).toEqual([]);
  });
});

describe('exam MCQs the KG decides: the selection', () => {
  const grounding = (joined: string[]) => ({
    stemNodes: ['Disease::RA'],
    options: Object.fromEntries(['A', 'B', 'C'].map((k) => [k, { nodes: [`X::${k}`], joined: joined.includes(k) }])),
  });

  it('keeps an item whose key is the one option joined to the stem', () => {
    expect(decidedByKg(grounding(['B']), 'B')).toBe(true);
  });

  it('drops it when another option is joined too, when only another is, or when none is', () => {
    expect(decidedByKg(grounding(['A', 'B']), 'B')).toBe(false);
    expect(decidedByKg(grounding(['A']), 'B')).toBe(false);
    expect(decidedByKg(grounding([]), 'B')).toBe(false);
  });

  it('splits tune and holdout by the id alone, about 40/60', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `medqa/${i}`);
    expect(ids.map(partOf)).toEqual(ids.map(partOf));
    const tune = ids.filter((id) => partOf(id) === 'tune').length;
    expect(tune).toBeGreaterThan(330);
    expect(tune).toBeLessThan(470);
  });
});
