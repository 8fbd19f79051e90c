import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import type { QuestionReading } from '@/lib/llm/offline/types';

// Multiple choice dictated without punctuation: the options are written only inline, as bare names, wherever they fall.
const chains = (u: QuestionReading) => u.anchors.map((a) => `${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);
const texts = (u: QuestionReading) => u.options.map((o) => o.text);

const NRTI: Mention = ['nucleoside reverse transcriptase inhibitors', 'Pharmacologic Class', 'Pharmacologic Class::N0000009947'];
const CLASSES: Mention[] = [
  ['purines', 'Pharmacologic Class', 'Pharmacologic Class::N0000007706'],
  ['allergens', 'Pharmacologic Class', 'Pharmacologic Class::N0000185504'],
  ['amino acids', 'Pharmacologic Class', 'Pharmacologic Class::N0000000194'],
];
const disease = (name: string, id: string): Mention => [name, 'Disease', `Disease::${id}`, [['Side Effect', `Side Effect::${id}`]]];
const HEPB = disease('hepatitis b', 'DOID:2043');
const DISEASES = [disease('asthma', 'DOID:2841'), disease('glaucoma', 'DOID:1686'), disease('migraine', 'DOID:6364')];

describe('options dictated as bare names', () => {
  it('a relation word inside a linked name takes no object: the names after it are the choices', () => {
    const u = readLinked(
      'right so which disease gets treated by nucleoside reverse transcriptase inhibitors hepatitis b asthma glaucoma or migraine',
      NRTI,
      HEPB,
      ...DISEASES,
    );
    expect(texts(u)).toEqual(['hepatitis b', 'asthma', 'glaucoma', 'migraine']);
    expect(chains(u)).toEqual(['nucleoside reverse transcriptase inhibitors:PCiC>CtD']);
    expect(u.answerKind).toBe('Disease');
  });

  it('one item of a list holding several names with only spaces between them is one option each', () => {
    const u = readLinked(
      'nucleoside reverse transcriptase inhibitors are used for which of these hepatitis b asthma glaucoma or migraine',
      NRTI,
      HEPB,
      ...DISEASES,
    );
    expect(texts(u)).toEqual(['hepatitis b', 'asthma', 'glaucoma', 'migraine']);
    expect(u.outputFormat).toBe('option');
  });

  it('a question word fronted before "do" is the object of the relation, so the run after it is the choices', () => {
    const u = readLinked(
      'what class do the medicines for hepatitis b fall under purines nucleoside reverse transcriptase inhibitors or allergens',
      HEPB,
      CLASSES[0],
      NRTI,
      CLASSES[1],
    );
    expect(texts(u)).toEqual(['purines', 'nucleoside reverse transcriptase inhibitors', 'allergens']);
    expect(u.answerKind).toBe('Pharmacologic Class');
    expect(chains(u)).toEqual(['hepatitis b:CtD>PCiC']);
  });

  it('a run right after a singular selection, in the middle of the question, is the choices', () => {
    const u = readLinked(
      'um which one of purines allergens nucleoside reverse transcriptase inhibitors or amino acids has a drug for hepatitis b',
      ...CLASSES.slice(0, 2),
      NRTI,
      CLASSES[2],
      HEPB,
    );
    expect(texts(u)).toEqual(['purines', 'allergens', 'nucleoside reverse transcriptase inhibitors', 'amino acids']);
    expect(chains(u)).toEqual(['hepatitis b:CtD>PCiC']);
  });

  it("the question word's own singular noun right before a run asks to choose among it", () => {
    const u = readLinked(
      'hepatitis b is treated by a drug in which class purines nucleoside reverse transcriptase inhibitors or allergens',
      HEPB,
      CLASSES[0],
      NRTI,
      CLASSES[1],
    );
    expect(texts(u)).toEqual(['purines', 'nucleoside reverse transcriptase inhibitors', 'allergens']);
    expect(u.answerKind).toBe('Pharmacologic Class');
    const first = readLinked('which disease asthma glaucoma or migraine is treated by nucleoside reverse transcriptase inhibitors', ...DISEASES, NRTI);
    expect(texts(first)).toEqual(['asthma', 'glaucoma', 'migraine']);
    expect(chains(first)).toEqual(['nucleoside reverse transcriptase inhibitors:PCiC>CtD']);
  });

  it("an item the list's layout cut inside a name runs to the name's end", () => {
    const u = readLinked(
      'would it be purines or allergens or nucleoside reverse transcriptase inhibitors that treat hepatitis b',
      CLASSES[0],
      CLASSES[1],
      NRTI,
      HEPB,
    );
    expect(texts(u)).toEqual(['purines', 'allergens', 'nucleoside reverse transcriptase inhibitors']);
    expect(chains(u)).toEqual(['hepatitis b:CtD>PCiC']);
  });

  it('names a relation takes as its object stay anchors', () => {
    const u = readLinked('which drug treats asthma or glaucoma', ...DISEASES.slice(0, 2));
    expect(u.options).toEqual([]);
    expect(u.anchors).toHaveLength(2);
  });
});

describe('a count asked after an arrow', () => {
  it('"X expression -> # of tissues/organs?" asks a count, no choice between "# of tissues" and "organs"', () => {
    const u = readLinked('KCNJ11 expression -> # of tissues/organs?', ['KCNJ11', 'Gene', 'Gene::3767']);
    expect(u.options).toEqual([]);
    expect(u.outputFormat).toBe('count');
    expect(u.answerKind).toBe('Anatomy');
  });
});
