import { type Mention } from '../support/linked-reading';
import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import { QuestionReadingSchema, type QuestionReading } from '@/lib/llm/offline/types';

/**
 * Exclusion, yes/no and multiple choice by general rules: an entity named
 * twice, once set aside as a member and once as a constraint, holds both
 * roles; a verb offered with its own negation ("may or may not") asks a
 * yes/no and negates nothing; a claim that an entity is one of a set of one
 * hop reads the set's own relation, the words framing the membership naming
 * none; option markers may be letters said aloud ("option bee", "letter C").
 * Wordings of our own.
 */

const E = {
  gout: ['gout', 'Disease', 'Disease::DOID:13189', [['Side Effect', 'Side Effect::C0018099']]],
  lupus: ['lupus', 'Disease', 'Disease::DOID:9074'],
  colchicine: ['colchicine', 'Compound', 'Compound::DB01394'],
  febuxostat: ['febuxostat', 'Compound', 'Compound::DB04854'],
  sorafenib: ['sorafenib', 'Compound', 'Compound::DB00398'],
  probenecid: ['probenecid', 'Compound', 'Compound::DB01032'],
  kdr: ['KDR', 'Gene', 'Gene::3791'],
  tp53: ['TP53', 'Gene', 'Gene::7157'],
  liver: ['liver', 'Anatomy', 'Anatomy::UBERON:0002107'],
  nausea: ['nausea', 'Side Effect', 'Side Effect::C0027497'],
} satisfies Record<string, Mention>;

/** Every mention of each entity in the text, as the linker gives them (one link per mention, at its own offset). */
function read(text: string, ...entities: Mention[]): QuestionReading {
  const links = entities.flatMap(([name, kind, nodeId, also]) =>
    [...text.matchAll(new RegExp(name, 'gi'))].map((m) => ({
      nodeId,
      kind,
      name,
      mention: m[0],
      start: m.index,
      end: m.index + m[0].length,
      score: 1,
      ...(also ? { readings: also.map(([k, id]) => ({ nodeId: id, kind: k, name })) } : {}),
    })),
  );
  return QuestionReadingSchema.parse(readQuestion(text, { links }));
}

const chains = (r: QuestionReading) =>
  r.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}:${a.chain.map((h) => h.edges[0].metaedge).join('>')}`).sort((a, b) => a.localeCompare(b));
const excluded = (r: QuestionReading) => r.excluded.map((e) => e.name.toLowerCase());
const claims = (r: QuestionReading) =>
  r.propositions.map((p) => `${p.negated ? 'not ' : ''}${p.subject.name} ${p.hop.edges.map((e) => e.metaedge).join('|')} ${p.object.name}`);

describe('an entity both set aside as a member and named as a constraint holds both roles', () => {
  it.each([
    ['Other than gout, which diseases resemble gout?', E.gout, 'gout:DrD'],
    ['Which genes interact with TP53, not counting TP53 itself?', E.tp53, 'TP53:GiG'],
    ['Leaving out sorafenib, what compounds are similar to sorafenib?', E.sorafenib, 'sorafenib:CrC'],
    ['List the genes that covary with KDR, excluding KDR.', E.kdr, 'KDR:GcG'],
    ['Besides lupus, what diseases are treated by the drugs for lupus?', E.lupus, 'lupus:CtD>CtD'],
  ])('%s', (text, entity, anchor) => {
    const r = read(text, entity);
    expect(excluded(r)).toEqual([entity[0].toLowerCase()]);
    expect(chains(r)).toEqual([anchor]);
  });
});

describe('a verb offered with its own negation asks a yes/no and negates nothing', () => {
  it.each([
    ['Colchicine may or may not treat gout; does it?', [E.colchicine, E.gout], 'colchicine CtD gout'],
    ["Does sorafenib or doesn't it bind KDR?", [E.sorafenib, E.kdr], 'sorafenib CbG KDR'],
    ['The liver: does it or does it not express TP53?', [E.liver, E.tp53], 'liver AeG TP53'],
    ['Febuxostat treats or does not treat gout, which is true?', [E.febuxostat, E.gout], 'febuxostat CtD gout'],
    ["Will probenecid or won't it cause nausea?", [E.probenecid, E.nausea], 'probenecid CcSE nausea'],
  ])('%s', (text, entities, claim) => {
    const r = read(text, ...entities);
    expect(r.outputFormat).toBe('yesno');
    expect(claims(r).map((c) => c.replace(/\|\S+/g, ''))).toEqual([claim]);
  });

  it('a negation of one verb alone still negates the claim', () => {
    expect(claims(read('Is it right that colchicine does not treat gout?', E.colchicine, E.gout))).toEqual(['not colchicine CtD gout']);
  });
});

describe('a one-hop membership claim reads the set’s own relation, not the words framing it', () => {
  it.each([
    ['Is gout included among the diseases that colchicine treats?', [E.gout, E.colchicine], 'gout CtD colchicine'],
    ['Is gout included among the diseases treated by febuxostat?', [E.gout, E.febuxostat], 'gout CtD febuxostat'],
    ['Is KDR included among the genes that sorafenib binds?', [E.kdr, E.sorafenib], 'KDR CbG sorafenib'],
    ['Would KDR be included among the genes TP53 interacts with?', [E.kdr, E.tp53], 'KDR GiG TP53'],
    ['Is lupus included among the diseases TP53 is associated with?', [E.lupus, E.tp53], 'lupus DaG TP53'],
  ])('%s', (text, entities, claim) => {
    expect(claims(read(text, ...entities))).toEqual([claim]);
  });
});

describe('option markers said aloud as letters', () => {
  it.each([
    ['Which treats gout: option ay colchicine, option bee sorafenib, option see probenecid?'],
    ['Which treats gout? Letter A: colchicine. Letter B: sorafenib. Letter C: probenecid.'],
    ['for gout which one letter a colchicine letter b sorafenib letter c probenecid'],
    ['Which drug is given for gout — choice ay, colchicine; choice bee, sorafenib; choice see, probenecid?'],
    ['Gout is treated by which? Answer eh colchicine, answer bee sorafenib, or answer cee probenecid.'],
  ])('%s', (text) => {
    const r = read(text, E.gout, E.colchicine, E.sorafenib, E.probenecid);
    expect(r.options.map((o) => `${o.letter} ${o.text.toLowerCase()}`)).toEqual(['A colchicine', 'B sorafenib', 'C probenecid']);
    expect(chains(r)).toEqual(['gout:CtD']);
  });
});

describe('an entity kept through one relation and set aside through another, in a set an exclusion names, is both', () => {
  it.each([
    ['Which tissues express KDR, excepting those where KDR is downregulated?', E.kdr, ['!KDR:AdG', 'KDR:AeG']],
    ['Which genes does TP53 regulate, other than those TP53 interacts with?', E.tp53, ['!TP53:GiG', 'TP53:Gr>G']],
    ['Which genes does sorafenib bind, leaving out any that sorafenib downregulates?', E.sorafenib, ['!sorafenib:CdG', 'sorafenib:CbG']],
    ['What diseases is TP53 associated with, except the ones where TP53 is upregulated?', E.tp53, ['!TP53:DuG', 'TP53:DaG']],
    ['Which compounds resemble sorafenib, apart from those that sorafenib is similar to in turn?', E.sorafenib, ['!sorafenib:CrC', 'sorafenib:CrC']],
  ])('%s', (text, entity, anchors) => {
    expect(chains(read(text, entity))).toEqual(anchors);
  });
});

describe('a word of the answer’s kind right after an exclusion names the set left out, not another set', () => {
  it.each([
    ['Which diseases does sorafenib treat besides the diseases probenecid treats?', [E.sorafenib, E.probenecid], ['!probenecid:CtD', 'sorafenib:CtD']],
    ['Apart from the genes TP53 interacts with, which genes does KDR interact with?', [E.tp53, E.kdr], ['!TP53:GiG', 'KDR:GiG']],
    ['Which drugs treat gout, other than the drugs that cause nausea?', [E.gout, E.nausea], ['!nausea:CcSE', 'gout:CtD']],
    ['Which genes are expressed in the liver, excluding any genes KDR interacts with?', [E.liver, E.kdr], ['!KDR:GiG', 'liver:AeG']],
    ['Which diseases does colchicine treat, but not the diseases febuxostat treats?', [E.colchicine, E.febuxostat], ['!febuxostat:CtD', 'colchicine:CtD']],
  ])('%s', (text, entities, anchors) => {
    const r = read(text, ...entities);
    expect(r.excluded).toEqual([]);
    expect(chains(r)).toEqual(anchors);
  });

  it('a kind word right before the entity names the entity, which is set aside as a member', () => {
    const r = read('Which drugs other than the drug colchicine treat gout?', E.colchicine, E.gout);
    expect(excluded(r)).toEqual(['colchicine']);
    expect(chains(r)).toEqual(['gout:CtD']);
  });
});
