import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import type { QuestionReading } from '@/lib/llm/offline/types';

// Sets a question names and takes up again inside one sentence, and sets taken up across sentences; wordings of our own.
const chains = (u: QuestionReading) =>
  u.anchors.map(
    (a) =>
      `${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => (e.metaedge.includes('>') ? `${e.metaedge}/${e.fromEnd}` : e.metaedge)).join('|')).join('>')}`,
  );

const GOUT: Mention = ['gout', 'Disease', 'Disease::DOID:13189'];
const ABL1: Mention = ['ABL1', 'Gene', 'Gene::25'];
const FEVER: Mention = ['fever', 'Symptom', 'Symptom::D005334'];
const STAT3: Mention = ['STAT3', 'Gene', 'Gene::6774'];
const LIVER: Mention = ['liver', 'Anatomy', 'Anatomy::UBERON:0002107'];

describe('a pronoun taking up a set its own sentence named before a comma or "and"', () => {
  it('the set a clause around the pronoun describes is another set, related to the one taken up by that clause', () => {
    const u = readLinked('Considering the diseases that present fever, which genes are associated with the diseases that resemble them?', FEVER);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['fever:DpS>DrD>DaG']);
  });

  it('a pronoun as the subject of a clause relates the set it takes up to the clause head (compound to gene)', () => {
    const u = readLinked('Take the compounds binding ABL1 and the genes any of them upregulates; which pathways include those genes?', ABL1);
    expect(u.answerKind).toBe('Pathway');
    expect(chains(u)).toEqual(['ABL1:CbG>CuG>GpPW']);
  });

  it('a word of the answer kind taken up by the pronoun is another set, not the answer (disease to compound)', () => {
    const u = readLinked('With the medicines prescribed for gout in mind, which compounds share a structure with any of them?', GOUT);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['gout:CtD>CrC']);
  });

  it('a pronoun object of a participle keeps the set around it apart (anatomy to disease)', () => {
    const u = readLinked('For the diseases that localize to the liver, which compounds treat the diseases resembling any of them?', LIVER);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['liver:DlA>DrD>CtD']);
  });

  it('the answer kind taken up across a comma keeps both sets of genes apart', () => {
    const u = readLinked('Of the genes expressed in the liver, which genes have protein products interacting with any of them?', LIVER);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['liver:AeG>GiG']);
  });

  it('the relation governing the pronoun chooses among earlier sets the one its metaedges reach', () => {
    const u = readLinked(
      'Given the symptoms fever accompanies and the genes STAT3 regulates, which pathways contain the genes any of them upregulates?',
      FEVER,
      STAT3,
    );
    expect(u.answerKind).toBe('Pathway');
    expect(chains(u)).toContain('STAT3:Gr>G/source>Gr>G/source>GpPW');
  });
});

describe('with no question word, the last clause naming a kind says what is asked', () => {
  const PSORIASIS: Mention = ['psoriasis', 'Disease', 'Disease::DOID:8893'];
  const IMATINIB: Mention = ['imatinib', 'Compound', 'Compound::DB00619'];
  const LUNG: Mention = ['lung', 'Anatomy', 'Anatomy::UBERON:0002048'];

  it('a note about diseases, then the symptoms those diseases present', () => {
    const u = readLinked('reading up on diseases in which STAT3 is upregulated\nplease: symptoms that those diseases present', STAT3);
    expect(u.answerKind).toBe('Symptom');
    expect(chains(u)).toEqual(['STAT3:DuG>DpS']);
  });

  it('a context line naming the entity, then the compounds asked for (gene to compound)', () => {
    const u = readLinked('Notes on skin disease genomics.\nlooking for: drugs that upregulate any gene downregulated in psoriasis', PSORIASIS);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['psoriasis:DdG>CuG']);
  });

  it('a dash sets the request after the set it builds on (compound to gene to pathway)', () => {
    const u = readLinked('genes that imatinib binds — pathways containing any of those genes', IMATINIB);
    expect(u.answerKind).toBe('Pathway');
    expect(chains(u)).toEqual(['imatinib:CbG>GpPW']);
  });

  it('the request after a colon names genes, the anatomy before it is a set on the way (anatomy to gene)', () => {
    const u = readLinked('body parts where psoriasis localizes; the genes expressed in those body parts', PSORIASIS);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['psoriasis:DlA>AeG']);
  });

  it('one clause only: its first kind word is asked for', () => {
    const u = readLinked('Diseases that localize to the lung and the genes associated with them', LUNG);
    expect(u.answerKind).toBe('Disease');
  });

  it('a last line naming the diseases asked for after a line about side effects (side effect to compound to disease)', () => {
    const u = readLinked('Drugs causing fever as a side effect.\nnext: the illnesses those drugs treat', ['fever', 'Side Effect', 'Side Effect::C0015967']);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['fever:CcSE>CtD']);
  });
});

describe('a word of the answer kind in an earlier sentence, related there to a set the asking sentence takes up', () => {
  const ASTHMA: Mention = ['asthma', 'Disease', 'Disease::DOID:2841'];
  const NAUSEA: Mention = ['nausea', 'Symptom', 'Symptom::D009325'];

  it('is a set on the chain, not the answer (disease to gene to compound to gene)', () => {
    const u = readLinked('Several drugs upregulate genes that are downregulated in asthma. Which genes do those drugs bind?', ASTHMA);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['asthma:DdG>CuG>CbG']);
  });

  it('named again by another word of its kind (symptom to disease to compound to disease)', () => {
    const u = readLinked('A few compounds treat diseases presenting nausea. What other diseases do these medicines palliate?', NAUSEA);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['nausea:DpS>CtD>CpD']);
  });

  it('through an anatomy set (gene to anatomy to gene)', () => {
    const u = readLinked('Some tissues express genes that ABL1 regulates. Which genes are downregulated in those tissues?', ABL1);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['ABL1:Gr>G/source>AeG>AdG']);
  });

  it('through a pathway set (gene to pathway to gene)', () => {
    const u = readLinked('Genes STAT3 interacts with participate in certain pathways. Which genes take part in these pathways as well?', STAT3);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['STAT3:GiG>GpPW>GpPW']);
  });

  it('the answer again where the asking sentence takes up the word itself', () => {
    const u = readLinked('Some genes are upregulated in asthma. Which of those genes does the liver express?', ASTHMA, LIVER);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u).sort()).toEqual(['asthma:DuG', 'liver:AeG']);
  });
});

describe('a relation phrase relates the words of its own sentence before those of the next', () => {
  const PRPS1: Mention = ['PRPS1', 'Gene', 'Gene::5631'];
  const HEART: Mention = ['heart', 'Anatomy', 'Anatomy::UBERON:0000948'];

  it('a gene upregulated in tissues is no regulator of the genes asked for next (gene to anatomy to gene)', () => {
    const u = readLinked('Look at the tissues where PRPS1 is upregulated. Which genes are expressed in those tissues?', PRPS1);
    expect(chains(u)).toEqual(['PRPS1:AuG>AeG']);
  });

  it('the set a semicolon closes on its verb keeps that verb (anatomy to gene to gene)', () => {
    const u = readLinked('Note the genes that the heart expresses; which genes are regulated by those genes?', HEART);
    expect(chains(u)).toEqual(['heart:AeG>Gr>G/source']);
  });

  it('a regulator named at a sentence end reaches the set of its sentence (gene to gene to compound to gene)', () => {
    const u = readLinked('Some compounds bind genes that ABL1 regulates. Which genes do those compounds downregulate?', ABL1);
    expect(chains(u)).toEqual(['ABL1:Gr>G/source>CbG>CdG']);
  });
  it('a gene upregulated in diseases is no target of the compounds asked for next (gene to disease to compound)', () => {
    const u = readLinked('Gather the diseases in which ABL1 is upregulated. Which compounds treat those diseases?', ABL1);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['ABL1:DuG>CtD']);
  });

  it('a gene downregulated in tissues, then genes upregulated there (gene to anatomy to gene)', () => {
    const u = readLinked('Consider the tissues where ABL1 is downregulated. Which genes are upregulated in those tissues?', ABL1);
    expect(chains(u)).toEqual(['ABL1:AdG>AuG']);
  });
});
