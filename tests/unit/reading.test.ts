import { linksIn } from '../support/linked-reading';
import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import type { QuestionReading } from '@/lib/llm/offline/types';

function read(text: string, entities: [string, string, string][], extra: Partial<Parameters<typeof readQuestion>[1]> = {}): QuestionReading {
  return readQuestion(text, { links: linksIn(text, entities), ...extra });
}

const chains = (u: QuestionReading) =>
  u.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);

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

  it('reads a bare run of names closing the question as the options', () => {
    const genes = ['UPF3A', 'ARPC4', 'EXOSC2', 'LRRCC1', 'SSR4'].map((g): [string, string, string] => [g.toLowerCase(), 'Gene', `Gene::${g}`]);
    const u = read('which of these interacts with upf3a arpc4 exosc2 lrrcc1 or ssr4', genes);
    expect(chains(u)).toEqual(['upf3a:GiG']);
    expect(u.options.map((o) => o.text)).toEqual(['arpc4', 'exosc2', 'lrrcc1', 'ssr4']);
    const listed = read("Which genes are shared by asthma, psoriasis and Crohn's disease?", [
      ASTHMA,
      ['psoriasis', 'Disease', 'Disease::DOID:8893'],
      ["Crohn's disease", 'Disease', 'Disease::DOID:8778'],
    ]);
    expect(listed.options).toEqual([]);
    expect(listed.anchors).toHaveLength(3);
  });

  it('as an object only, with the option links given apart', () => {
    const stem = 'Which drug treats asthma?';
    const optionLinks = Object.fromEntries(
      OPTIONS.map(([m, kind, nodeId], i) => [String.fromCharCode(65 + i), [{ nodeId, kind, name: m, mention: m, start: 0, end: m.length }]]),
    );
    const u = read(stem, [ASTHMA], { options: object, optionLinks });
    expect(chains(u)).toEqual(['asthma:CtD']);
    expect(u.options).toHaveLength(3);
    expect(u.options[1].links[0].nodeId).toBe('Compound::DB01001');
  });
});

const DHP: [string, string, string] = ['dihydropyridines', 'Pharmacologic Class', 'Pharmacologic Class::N0000175586'];
const XOI: [string, string, string] = ['xanthine oxidase inhibitors', 'Pharmacologic Class', 'Pharmacologic Class::N0000175570'];
const HYPERTENSION: [string, string, string] = ['hypertension', 'Disease', 'Disease::DOID:10763'];

describe('collections named where their members are meant', () => {
  it('asks for the members of a class named in place of a kind word', () => {
    const u = read('Which dihydropyridines are used to treat hypertension?', [DHP, HYPERTENSION]);
    expect(u.answerKind).toBe('Compound');
    expect(u.outputFormat).toBe('list');
    expect(chains(u).sort()).toEqual(['dihydropyridines:PCiC', 'hypertension:CtD']);
  });

  it('relates a class through the compounds it includes', () => {
    const u = read('what diseases do xanthine oxidase inhibitors treat', [XOI]);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['xanthine oxidase inhibitors:PCiC>CtD']);
    expect(u.anchors[0].chain[0].edges[0].fromEnd).toBe('source');
  });
});

describe('chains and the asked kind', () => {
  it('reads a same-kind set described by its own clause as an intermediate', () => {
    const u = read('Which compounds are structurally similar to the drugs that treat asthma?', [ASTHMA]);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['asthma:CtD>CrC']);
  });

  it('asks for a place with "where in the body"', () => {
    const u = read('Where in the body are the diseases treated by metformin located?', [OPTIONS[0]]);
    expect(u.answerKind).toBe('Anatomy');
    expect(chains(u)).toEqual(['metformin:CtD>DlA']);
  });

  it('reads "Are there any genes …? Which ones?" as a list, not a verdict', () => {
    const u = read("Are there any genes associated with both asthma and Crohn's disease? Which ones?", [
      ASTHMA,
      ["Crohn's disease", 'Disease', 'Disease::DOID:8778'],
    ]);
    expect(u.outputFormat).toBe('list');
    expect(u.operator).toBe('shared_neighbor');
    expect(u.propositions).toEqual([]);
  });

  it('keeps "Is there any evidence that …" a yes/no question', () => {
    const u = read('Is there any evidence that metformin treats asthma?', [OPTIONS[0], ASTHMA]);
    expect(u.outputFormat).toBe('yesno');
    expect(u.propositions).toHaveLength(1);
  });

  it('does not read a question after a dash as a list of options', () => {
    const u = read('I read about PDE3B — what types or classes of drugs bind to it?', [['PDE3B', 'Gene', 'Gene::5140']]);
    expect(u.options).toEqual([]);
    expect(u.answerKind).toBe('Pharmacologic Class');
    expect(chains(u)).toEqual(['PDE3B:CbG>PCiC']);
  });

  it('reads two entities joined by a relation, with nothing asked, as a claim to check', () => {
    const u = read('niacin upregulate WIF1', [
      ['niacin', 'Compound', 'Compound::DB00627'],
      ['WIF1', 'Gene', 'Gene::11197'],
    ]);
    expect(u.outputFormat).toBe('yesno');
    expect(u.propositions.map((p) => [p.subject.name, p.hop.edges[0].metaedge, p.object.name])).toEqual([['niacin', 'CuG', 'WIF1']]);
  });

  it('keeps a plural kind introduced by "any" in a yes/no question a verdict', () => {
    const u = read('does sunitinib bind any genes in the EPHA forward signaling pathway', [
      ['sunitinib', 'Compound', 'Compound::DB01268'],
      ['EPHA forward signaling', 'Pathway', 'Pathway::PC7_1'],
    ]);
    expect(u.outputFormat).toBe('yesno');
    expect(u.operator).toBe('yesno');
    expect(chains(u).sort()).toEqual(['EPHA forward signaling:GpPW', 'sunitinib:CbG']);
  });

  it('takes up a collection named in an earlier clause by "that group"', () => {
    const text = 'My aunt was told about selective estrogen receptor modulators — are any drugs in that group used to treat asthma?';
    const u = read(text, [['selective estrogen receptor modulators', 'Pharmacologic Class', 'Pharmacologic Class::N0000175658'], ASTHMA]);
    expect(chains(u).sort()).toEqual(['asthma:CtD', 'selective estrogen receptor modulators:PCiC']);
  });
});
