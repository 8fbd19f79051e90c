import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import type { QuestionReading } from '@/lib/llm/offline/types';

// A member asked about after its set is described, and sets named by a relation noun; wordings of our own.
const chains = (u: QuestionReading) => u.anchors.map((a) => `${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);

const PTEN: Mention = ['PTEN', 'Gene', 'Gene::5728'];
const GLIOMA: Mention = ['glioma', 'Disease', 'Disease::DOID:3070'];
const IMATINIB: Mention = ['imatinib', 'Compound', 'Compound::DB00619'];
const ASTHMA: Mention = ['asthma', 'Disease', 'Disease::DOID:2841'];

describe('a member named after its set', () => {
  it('"…: X included, yes or no?" asks whether X is in the set described before, not a choice among "X included", yes and no', () => {
    const u = readLinked('illnesses associated with the genes PTEN interacts with: glioma included, yes or no?', PTEN, GLIOMA);
    expect(u.options).toEqual([]);
    expect(u.outputFormat).toBe('yesno');
    expect(chains(u)).toEqual(['PTEN:GiG', 'glioma:DaG']);
  });

  it('"is X one of them?" after the set takes the set up', () => {
    const u = readLinked('diseases associated with genes that imatinib binds - is asthma one of them?', IMATINIB, ASTHMA);
    expect(u.outputFormat).toBe('yesno');
    expect(chains(u)).toEqual(['imatinib:CbG', 'asthma:DaG']);
  });

  it('a member inside its own set stays a member: "included in" is followed by the set', () => {
    const u = readLinked('Is glioma included among the diseases linked to genes that interact with PTEN?', GLIOMA, PTEN);
    expect(chains(u)).toEqual(['PTEN:GiG', 'glioma:DaG']);
  });
});

describe('a relation noun after a possessive and a kind word naming the entity again', () => {
  it("\"PTEN's protein interaction partners\" are PTEN's neighbours by the noun's relation", () => {
    const u = readLinked("Illnesses linked to PTEN's protein interaction partners?", PTEN);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['PTEN:GiG>DaG']);
  });
});

describe('a set described before a colon and taken up after it', () => {
  const KIDNEY_CA: Mention = ['kidney ca', 'Disease', 'Disease::DOID:263'];

  it('"w/" is shorthand, no list separator, and "any of them" takes up the set a relation describes', () => {
    const u = readLinked('Genes assoc w/ kidney ca: in which tissues/organs is any of them upregulated?', KIDNEY_CA);
    expect(u.options).toEqual([]);
    expect(u.answerKind).toBe('Anatomy');
    expect(chains(u)).toEqual(['kidney ca:DaG>AuG']);
  });
});

describe('a set named before a colon or a dash set off by spaces, taken up by a pronoun', () => {
  const CLOZAPINE: Mention = ['clozapine', 'Compound', 'Compound::DB00363'];

  it.each([':', ' —', ' -'])('"… some genes%s which genes covary with any of those?" reads two sets of genes', (mark) => {
    const u = readLinked(`clozapine upregulates some genes${mark} which genes covary with any of those?`, CLOZAPINE);
    expect(chains(u)).toEqual(['clozapine:CuG>GcG']);
  });
});
