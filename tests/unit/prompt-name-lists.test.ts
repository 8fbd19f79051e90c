import { describe, expect, it } from 'vitest';
import { nameList } from '@/lib/llm/templates/names';
import { answerStrictTemplate, type HopMemory } from '@/lib/methods/regram/templates';
import { patternText, type UnitPath } from '@/lib/methods/bioweave/units';

const COMMA_NAMES = ['Abdomen, Acute', 'Pelvic Pain', 'Jaundice, Obstructive'];

describe('lists of entity names in prompts read back to the same names', () => {
  it('joins names with a separator no name holds, so names with commas stay whole', () => {
    expect(nameList(COMMA_NAMES).split('; ')).toEqual(COMMA_NAMES);
    expect(nameList([])).toBe('');
  });

  it("shows an earlier hop's entities as a list that splits back into them, with their number", () => {
    const prior: HopMemory = {
      hop: 1,
      question: 'Which symptoms does peritoneum cancer present?',
      mode: 'KG-STRICT',
      answer: 'Abdomen, Acute, Pelvic Pain, Jaundice, Obstructive',
      items: COMMA_NAMES.map((name, i) => ({ nodeId: `S${i}`, name, kind: 'Symptom' })),
      abstained: false,
    };
    const text = answerStrictTemplate.render({
      hop: { hop: 2, question: 'Which of these symptoms does colon cancer not present?', links: [], prior, context: [prior] },
      facts: [],
    });
    const line = /Its (\d+) entities: (.*)/.exec(text);
    expect(line?.[1]).toBe('3');
    expect(line?.[2].split('; ')).toEqual(COMMA_NAMES);
  });

  it("writes a unit's set of middle nodes with the same separator", () => {
    const path = (middle: string): UnitPath =>
      ({
        nodes: [
          { name: 'colon cancer', kind: 'Disease' },
          { name: middle, kind: 'Symptom' },
        ],
        triples: [{ verb: 'presents' }],
      }) as unknown as UnitPath;
    expect(patternText([path('Abdomen, Acute'), path('Jaundice, Obstructive')])).toBe('colon cancer – presents – {Abdomen, Acute; Jaundice, Obstructive}');
  });
});
