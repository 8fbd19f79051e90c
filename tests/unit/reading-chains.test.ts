import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import { answerSetQuery } from '@/lib/channels/answer-set';
import type { QuestionReading } from '@/lib/llm/offline/types';

/**
 * Chains of up to three hops: nested clauses, arrow notes, collections read
 * through their members, and yes/no on whether an entity belongs to a chain's
 * set (read as the meeting of the chain and the entity). Links are given as
 * the linker gives them; the wordings are this file's own.
 */

type E = Mention;
const read = readLinked;

const chains = (u: QuestionReading) => u.anchors.map((a) => `${a.entity.name}:${a.chain.map((h) => h.edges[0].metaedge).join('>')}`);

const PSORIASIS: E = ['psoriasis', 'Disease', 'Disease::DOID:8893'];
const ASTHMA: E = ['asthma', 'Disease', 'Disease::DOID:2841'];
const HYPERTENSION: E = ['hypertension', 'Disease', 'Disease::DOID:10763'];
const IL6: E = ['IL6', 'Gene', 'Gene::3569'];
const TNF: E = ['TNF', 'Gene', 'Gene::7124'];
const METFORMIN: E = ['metformin', 'Compound', 'Compound::DB00331'];
const ASPIRIN: E = ['aspirin', 'Compound', 'Compound::DB00945'];
const WARFARIN: E = ['warfarin', 'Compound', 'Compound::DB00682'];
const HEMOSTASIS: E = ['Hemostasis', 'Pathway', 'Pathway::R-HSA-109582'];
const NAUSEA: E = ['nausea', 'Symptom', 'Symptom::D009325', [['Side Effect', 'Side Effect::C0027497']]];

describe('yes/no on whether an entity belongs to a chain’s set', () => {
  it.each([
    ['Is psoriasis one of the conditions linked to genes that interact with IL6?'],
    ['Would psoriasis be among the diseases associated with any gene that interacts with IL6?'],
  ])('%s', (text) => {
    const u = read(text, PSORIASIS, IL6);
    expect(u.outputFormat).toBe('yesno');
    expect(u.operator).toBe('yesno');
    // The set's chain (IL6 –interacts– gene –associated– disease) meets psoriasis at a gene.
    expect(u.answerKind).toBe('Gene');
    expect(chains(u).sort()).toEqual(['IL6:GiG', 'psoriasis:DaG']);
    expect(u.propositions).toEqual([]);
    expect(u.notes.join(' ')).toMatch(/whether psoriasis is among/);
  });

  it('takes the member’s reading of the set’s kind', () => {
    const u = read('Is nausea a recognised side effect of any of the medicines prescribed for asthma?', NAUSEA, ASTHMA);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u).sort()).toEqual(['asthma:CtD', 'nausea:CcSE']);
    expect(u.anchors.find((a) => a.entity.name === 'nausea')!.entity.kind).toBe('Side Effect');
  });

  it('leaves a one-hop membership to the pair’s own edges', () => {
    const u = read('Is metformin one of the drugs that treat hypertension?', METFORMIN, HYPERTENSION);
    expect(u.propositions).toHaveLength(1);
    expect(u.propositions[0].hop.edges[0].metaedge).toBe('CtD');
  });
});

describe('arrow notes', () => {
  it('reads each part as the next set, through the relation written in it', () => {
    const u = read('metformin -> compounds similar to it -> conditions they treat -> which genes are associated with those?', METFORMIN);
    expect(u.answerKind).toBe('Gene');
    expect(u.outputFormat).toBe('list');
    expect(chains(u)).toEqual(['metformin:CrC>CtD>DaG']);
  });

  it('a relation phrase after the anchor names the first set', () => {
    const u = read('aspirin structural analogues ⟶ diseases they are used for ⟶ which symptoms do those present?', ASPIRIN);
    expect(chains(u)).toEqual(['aspirin:CrC>CtD>DpS']);
  });

  it('an entity of the last set’s kind in the last part is a member asked about', () => {
    const u = read('asthma → drugs that treat it → genes they bind: is TNF one of them?', ASTHMA, TNF);
    expect(u.outputFormat).toBe('yesno');
    expect(u.answerKind).toBe('Compound');
    expect(chains(u).sort()).toEqual(['TNF:CbG', 'asthma:CtD']);
  });
});

describe('nested clauses and collections', () => {
  it('"any of the" introduces the set a yes/no question asks about', () => {
    const u = read('Does aspirin resemble any of the drugs prescribed for hypertension?', ASPIRIN, HYPERTENSION);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u).sort()).toEqual(['aspirin:CrC', 'hypertension:CtD']);
  });

  it('a kind named before the yes/no clause is context, not the set asked about', () => {
    const u = read('We are doing some drug screening this week. Does warfarin bind any of the genes in the Hemostasis pathway?', WARFARIN, HEMOSTASIS);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u).sort()).toEqual(['Hemostasis:GpPW', 'warfarin:CbG']);
  });

  it('a class relates to a clause through its member drugs', () => {
    const u = read('Which drug classes are used for diseases that resemble psoriasis?', PSORIASIS);
    expect(u.answerKind).toBe('Pharmacologic Class');
    expect(chains(u)).toEqual(['psoriasis:DrD>CtD>PCiC']);
  });
});

describe('the answer set of a chain', () => {
  it('follows the whole chain from each anchor', () => {
    const u = read('List the genes targeted by drugs that treat asthma.', ASTHMA);
    const q = answerSetQuery(u)!;
    expect(q.kind).toBe('Gene');
    expect(q.constraints).toEqual([
      {
        anchor: { id: 'Disease::DOID:2841', kind: 'Disease', name: 'asthma' },
        metaedges: ['CbG'],
        direction: 'out',
        via: [{ metaedges: ['CtD'], direction: 'in', kind: 'Compound' }],
      },
    ]);
  });

  it('asks for the meeting set of a membership question', () => {
    const q = answerSetQuery(read('Is psoriasis one of the conditions linked to genes that interact with IL6?', PSORIASIS, IL6))!;
    expect(q.kind).toBe('Gene');
    expect(q.constraints.map((c) => [c.anchor.name, c.metaedges[0], c.direction])).toEqual(
      expect.arrayContaining([
        ['IL6', 'GiG', 'both'],
        ['psoriasis', 'DaG', 'out'],
      ]),
    );
  });

  it('asks for none for a yes/no on a given pair', () => {
    expect(answerSetQuery(read('Is metformin one of the drugs that treat hypertension?', METFORMIN, HYPERTENSION))).toBeNull();
  });
});
