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

  it("writes a unit's set of middle nodes with the same separator, each step in its metaedge's direction", () => {
    const node = (name: string, kind: string) => ({ nodeId: `${kind}::${name}`, name, kind });
    const step = (from: ReturnType<typeof node>, to: ReturnType<typeof node>, metaedge: string, verb: string, forward: boolean) => ({
      metaedge,
      verb,
      sourceId: (forward ? from : to).nodeId,
      sourceKind: (forward ? from : to).kind,
      targetKind: (forward ? to : from).kind,
    });
    const cancer = node('colon cancer', 'Disease');
    const path = (middle: string): UnitPath => {
      const m = node(middle, 'Symptom');
      return { nodes: [cancer, m], triples: [step(cancer, m, 'DpS', 'presents', true)] } as unknown as UnitPath;
    };
    expect(patternText([path('Abdomen, Acute'), path('Jaundice, Obstructive')])).toBe('colon cancer –presents→ {Abdomen, Acute; Jaundice, Obstructive}');

    // From the symptom, the diseases present it: the arrow runs against the walk, and a resemblance has no direction.
    const hypocapnia = node('Hypocapnia', 'Symptom');
    const chain = (disease: string, like: string): UnitPath => {
      const [d, l] = [node(disease, 'Disease'), node(like, 'Disease')];
      return {
        nodes: [hypocapnia, d, l],
        triples: [step(hypocapnia, d, 'DpS', 'presents', false), step(d, l, 'DrD', 'resembles', like < disease)],
      } as unknown as UnitPath;
    };
    expect(patternText([chain('asthma', 'allergic rhinitis'), chain('panic disorder', 'bipolar disorder')])).toBe(
      'Hypocapnia ←presents– {asthma; panic disorder} –resembles– {allergic rhinitis; bipolar disorder}',
    );
  });

  it('says what "these" names in a hop built on an earlier one, even when it is one entity', () => {
    const prior: HopMemory = {
      hop: 2,
      question: 'Which genes regulate these genes?',
      mode: 'KG-STRICT',
      answer: 'TFCP2',
      items: [{ nodeId: 'Gene::7024', name: 'TFCP2', kind: 'Gene' }],
      abstained: false,
    };
    const text = answerStrictTemplate.render({ hop: { hop: 3, question: 'Which genes regulate these genes?', links: [], prior, context: [prior] }, facts: [] });
    expect(text).toContain('  Its 1 entity: TFCP2');
    expect(text).toContain('Sub-question (hop 3): Which genes regulate these genes?\n"These" in the sub-question: the 1 entity of hop 2\'s answer (TFCP2)');
  });
});
