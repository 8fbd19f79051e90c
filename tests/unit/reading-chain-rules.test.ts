import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import type { QuestionReading } from '@/lib/llm/offline/types';

/**
 * Chains, exclusion and yes/no on a chain's set, by general rules: a "which"
 * after a preposition following a noun opens a relative clause; a set pronoun
 * after an exclusion stands for the answer; an entity set before "among" a set
 * of its kind asks whether it belongs, also when a pronoun takes it up; an
 * entity taken up by a pronoun relates where the pronoun stands; an indefinite
 * kind word with an adjective of a relation introduces the kind; a negated
 * clause closing on a pronoun denies that relation to the entity it takes up.
 * Wordings of our own, over metaedges the tune files use little.
 */

const E = {
  tamoxifen: ['tamoxifen', 'Compound', 'Compound::DB00675'],
  hmgcr: ['HMGCR', 'Gene', 'Gene::3156'],
  imatinib: ['imatinib', 'Compound', 'Compound::DB00619'],
  abl1: ['ABL1', 'Gene', 'Gene::25'],
  betaxolol: ['Betaxolol', 'Compound', 'Compound::DB00195'],
  chestPain: ['chest pain', 'Symptom', 'Symptom::D002637'],
  pbc: ['primary biliary cirrhosis', 'Disease', 'Disease::DOID:12236'],
  entecavir: ['entecavir', 'Compound', 'Compound::DB00442'],
  losartan: ['Losartan', 'Compound', 'Compound::DB00678'],
  hypertension: ['hypertension', 'Disease', 'Disease::DOID:10763'],
  migraine: ['migraine', 'Disease', 'Disease::DOID:6364'],
  asthma: ['asthma', 'Disease', 'Disease::DOID:2841'],
  egfr: ['EGFR', 'Gene', 'Gene::1956'],
  gefitinib: ['gefitinib', 'Compound', 'Compound::DB00317'],
  liver: ['liver', 'Anatomy', 'Anatomy::UBERON:0002107'],
} satisfies Record<string, Mention>;

const read = (text: string) => readLinked(text, ...Object.values(E).filter((e) => text.includes(e[0])));
const chains = (r: QuestionReading) =>
  r.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`).sort();

describe('a relative "which" asks for nothing', () => {
  it.each([
    ['Name the pathways in which genes downregulated by tamoxifen participate.', 'Pathway', ['tamoxifen:CdG>GpPW']],
    ['Which are the diseases for which the drugs binding HMGCR are indicated?', 'Disease', ['HMGCR:CbG>CtD']],
  ])('%s', (text, kind, expected) => {
    const r = read(text);
    expect(r.answerKind).toBe(kind);
    expect(r.outputFormat).toBe('list');
    expect(chains(r)).toEqual(expected);
  });

  it('an opening "In which" still asks', () => {
    expect(read('In which tissues is EGFR expressed?').answerKind).toBe('Anatomy');
  });
});

describe('what an exclusion sets aside', () => {
  it('a set pronoun after the cue stands for the answer; its clause names the negated anchor', () => {
    const r = read('Which pathways contain genes bound by imatinib, other than those containing ABL1?');
    expect(r.answerKind).toBe('Pathway');
    expect(chains(r)).toEqual(['!ABL1:GpPW', 'imatinib:CbG>GpPW']);
    expect(r.excluded).toEqual([]);
  });

  it('a verb with "aside" or "out" sets a member aside', () => {
    const r = read('Which compounds bind EGFR, leaving aside gefitinib?');
    expect(r.excluded.map((e) => e.name)).toEqual(['gefitinib']);
    expect(chains(r)).toEqual(['EGFR:CbG']);
  });

  it.each([
    ['Which compounds provide relief in migraine without treating it?', ['!migraine:CtD', 'migraine:CpD']],
    ['Which genes are associated with asthma but are not upregulated in it?', ['!asthma:DuG', 'asthma:DaG']],
  ])('a negated clause on a pronoun denies its relation to the entity, which keeps its own: %s', (text, expected) => {
    const r = read(text);
    expect(r.outputFormat).toBe('list');
    expect(chains(r)).toEqual(expected);
  });
});

describe('yes/no on a chain’s set', () => {
  it.each([
    ['Betaxolol — among the drugs treating diseases that present chest pain?'],
    ['Betaxolol: is it among the drugs that treat diseases presenting with chest pain?'],
  ])('a topic before "among" is the member asked about: %s', (text) => {
    const r = read(text);
    expect(r.outputFormat).toBe('yesno');
    expect(r.answerKind).toBe('Disease');
    expect(chains(r)).toEqual(['Betaxolol:CtD', 'chest pain:DpS']);
    expect(r.propositions).toEqual([]);
  });

  it('a yes/no may open after a hedge and a conjunction', () => {
    const r = read('Forgive the naive phrasing, but is EGFR bound by a compound similar to gefitinib?');
    expect(r.outputFormat).toBe('yesno');
    expect(r.answerKind).toBe('Compound');
    expect(chains(r)).toEqual(['EGFR:CbG', 'gefitinib:CrC']);
  });

  it('an entity taken up by a pronoun relates where the pronoun stands', () => {
    const r = read('My mom has primary biliary cirrhosis. Is entecavir one of the drugs that treat diseases similar to hers?');
    expect(r.outputFormat).toBe('yesno');
    expect(chains(r)).toEqual(['entecavir:CtD', 'primary biliary cirrhosis:DrD']);
  });

  it('an indefinite kind word with a relation adjective introduces the kind', () => {
    const r = read('Can hypertension be treated by a compound similar to Losartan?');
    expect(r.outputFormat).toBe('yesno');
    expect(r.answerKind).toBe('Compound');
    expect(r.propositions).toEqual([]);
    expect(chains(r)).toEqual(['Losartan:CrC', 'hypertension:CtD']);
  });
});

describe('a set pronoun takes up the set a context sentence named', () => {
  it('"the ones treated by …" after a sentence naming the treated set', () => {
    const r = read(
      'Losartan has a few structurally similar compounds, and those are used against several illnesses. Which illnesses resemble the ones treated by those compounds?',
    );
    expect(r.answerKind).toBe('Disease');
    expect(chains(r)).toEqual(['Losartan:CrC>CtD>DrD']);
  });
});

const F = {
  topiramate: ['Topiramate', 'Compound', 'Compound::DB00273'],
  exosc3: ['EXOSC3', 'Gene', 'Gene::51010'],
  scleroderma: ['systemic scleroderma', 'Disease', 'Disease::DOID:418'],
  trappc6a: ['TRAPPC6A', 'Gene', 'Gene::79090'],
  dermis: ['dermis', 'Anatomy', 'Anatomy::UBERON:0002067'],
  prps1: ['PRPS1', 'Gene', 'Gene::5631'],
  bicalutamide: ['bicalutamide', 'Compound', 'Compound::DB01128'],
} satisfies Record<string, Mention>;
const readF = (text: string) => readLinked(text, ...Object.values(F).filter((e) => text.includes(e[0])));

describe('sets a relation of a kind to itself governs, and sets taken up', () => {
  it('"resembles one of the diseases …" is another set than the answer', () => {
    expect(chains(readF('Which disease resembles one of the diseases in which EXOSC3 is downregulated?'))).toEqual(['EXOSC3:DdG>DrD']);
  });

  it('a relation of the kind to itself after another set of the kind makes a further set', () => {
    expect(chains(readF('Which illnesses resemble an illness that resembles one of the illnesses treated by Topiramate?'))).toEqual(['Topiramate:CtD>DrD>DrD']);
  });

  it('a set pronoun closing its sentence takes up the set a sentence before named', () => {
    const r = readF('Topiramate is prescribed for several illnesses. Which illnesses resemble any of those?');
    expect(r.answerKind).toBe('Disease');
    expect(chains(r)).toEqual(['Topiramate:CtD>DrD']);
  });

  it('"the genes it regulates": a plural kind word, a pronoun for the one entity named before and a verb make a clause', () => {
    const r = readF('Consider PRPS1. Which diseases show downregulation of the genes it regulates?');
    expect(chains(r)).toEqual(['PRPS1:Gr>G>DdG']);
  });
});

describe('glosses, notes and particles', () => {
  it('a bracket right after a relation phrase glosses it: its negation and relation words are not read', () => {
    const r = readF('Is systemic scleroderma among the diseases palliated (eased, not cured) by the compounds that downregulate TRAPPC6A?');
    expect(r.outputFormat).toBe('yesno');
    expect(chains(r)).toEqual(['TRAPPC6A:CdG', 'systemic scleroderma:CpD']);
  });

  it('one arrow is a chain when the first part names a set; "# of" counts', () => {
    const r = readF('Conditions localizing to the dermis -> # of distinct drugs palliating them?');
    expect(r.outputFormat).toBe('count');
    expect(r.answerKind).toBe('Compound');
    expect(chains(r)).toEqual(['dermis:DlA>CpD']);
  });

  it.each([
    ['Which genes does bicalutamide crank up?', 'bicalutamide:CuG'],
    ['Which genes does bicalutamide tone down?', 'bicalutamide:CdG'],
  ])('a verb of turning a level with "up" or "down" reads regulation: %s', (text, chain) => {
    expect(chains(readF(text))).toEqual([chain]);
  });
});
