import { describe, expect, it } from 'vitest';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { readLinked, type Mention } from '../support/linked-reading';

// Chains whose middle set is named by a noun phrase built around an entity: the relation inside the phrase
// joins the entity to the phrase's kind word, the one outside joins that set to the answer.

const chains = (u: QuestionReading) => u.anchors.map((a) => `${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);

const CLOFIBRATE: Mention = ['clofibrate', 'Compound', 'Compound::DB00636'];
const ECZEMA: Mention = ['eczema', 'Disease', 'Disease::DOID:2723'];
const SOCS3: Mention = ['SOCS3', 'Gene', 'Gene::9021'];

describe('an entity hyphened to a relation word before a kind word', () => {
  it.each([
    ['What illnesses get treated with clofibrate-like medicines?', CLOFIBRATE, 'CrC>CtD'],
    ['Name the illnesses that clofibrate-resembling agents are indicated for.', CLOFIBRATE, 'CrC>CtD'],
    ['Which proteins are targeted by eczema-treating medicines?', ECZEMA, 'CtD>CbG'],
    ['Which pathways include SOCS3-interacting proteins?', SOCS3, 'GiG>GpPW'],
  ])('%s', (text, entity, chain) => {
    expect(chains(readLinked(text, entity))).toEqual([`${entity[0]}:${chain}`]);
  });

  it('reads "-like" as resemblance between two diseases too', () => {
    const u = readLinked('Which medicines are prescribed for eczema-like skin conditions?', ECZEMA);
    expect(chains(u)).toEqual(['eczema:DrD>CtD']);
  });

  it('leaves "like" as a preposition alone', () => {
    const u = readLinked('Which illnesses do medicines like clofibrate treat?', CLOFIBRATE);
    expect(chains(u)[0]).not.toMatch(/CrC/);
  });
});

describe('a possessive between two words of one kind', () => {
  it.each([['Which genes whose protein binds clofibrate are there?'], ['List genes having a product that binds clofibrate.']])('names one set: %s', (text) => {
    const u = readLinked(text, CLOFIBRATE);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['clofibrate:CbG']);
  });
});

describe('a kind word after a bare question word and an auxiliary is the subject', () => {
  it.each([
    ['What do eczema medicines bind?', 'Gene', 'eczema:CtD>CbG'],
    ['What might medicines for eczema bring about as side effects?', 'Side Effect', 'eczema:CtD>CcSE'],
    ['What can medicines prescribed for eczema cause?', 'Side Effect', 'eczema:CtD>CcSE'],
  ])('the answer is what its verb reaches: %s', (text, kind, chain) => {
    const u = readLinked(text, ECZEMA);
    expect(u.answerKind).toBe(kind);
    expect(chains(u)).toEqual([chain]);
  });

  it('keeps a kind word right after the question word the answer', () => {
    const u = readLinked('Which proteins do eczema medicines bind?', ECZEMA);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['eczema:CtD>CbG']);
  });
});
