import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import type { LinkedEntity, QuestionReading } from '@/lib/llm/offline/types';

/** Links as the linker returns them, offsets found in the text (the nth occurrence with "name#n"). */
function linksIn(text: string, entities: [string, string, string][]): LinkedEntity[] {
  return entities.map(([mention, kind, nodeId]) => {
    const start = text.indexOf(mention);
    if (start < 0) throw new Error(`'${mention}' not in '${text}'`);
    return { nodeId, kind, name: mention, mention, start, end: start + mention.length, score: 1 };
  });
}

function read(text: string, entities: [string, string, string][], extra: Partial<Parameters<typeof readQuestion>[1]> = {}): QuestionReading {
  return readQuestion(text, { links: linksIn(text, entities), ...extra });
}

const chains = (u: QuestionReading) => u.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);

const ASTHMA: [string, string, string] = ['asthma', 'Disease', 'Disease::DOID:2841'];
const OPTIONS: [string, string, string][] = [
  ['metformin', 'Compound', 'Compound::DB00331'],
  ['salbutamol', 'Compound', 'Compound::DB01001'],
  ['warfarin', 'Compound', 'Compound::DB00682'],
];

describe('multiple choice: the options are one set of candidates, never anchors', () => {
  const text = 'Which drug treats asthma? A) metformin B) salbutamol C) warfarin';
  const object = { A: 'metformin', B: 'salbutamol', C: 'warfarin' };

  it.each([
    ['inline only', {}],
    ['as an object and inline', { options: object }],
  ])('%s', (_, extra) => {
    const u = read(text, [ASTHMA, ...OPTIONS], extra);
    expect(chains(u)).toEqual(['asthma:CtD']);
    expect(u.outputFormat).toBe('option');
    expect(u.options.map((o) => [o.letter, o.links[0]?.nodeId])).toEqual([
      ['A', 'Compound::DB00331'],
      ['B', 'Compound::DB01001'],
      ['C', 'Compound::DB00682'],
    ]);
    expect(u.stem).toBe('Which drug treats asthma?');
  });

  it('as an object only, with the option links given apart', () => {
    const stem = 'Which drug treats asthma?';
    const optionLinks = Object.fromEntries(OPTIONS.map(([m, kind, nodeId], i) => [String.fromCharCode(65 + i), [{ nodeId, kind, name: m, mention: m, start: 0, end: m.length }]]));
    const u = read(stem, [ASTHMA], { options: object, optionLinks });
    expect(chains(u)).toEqual(['asthma:CtD']);
    expect(u.options).toHaveLength(3);
    expect(u.options[1].links[0].nodeId).toBe('Compound::DB01001');
  });
});
