import { readLinked, type Mention } from '../support/linked-reading';
import { describe, expect, it } from 'vitest';
import type { QuestionReading } from '@/lib/llm/offline/types';

/**
 * What a question sets aside and what it restates, by general rules: an answer
 * asked for as "other K" sets aside the Ks named before its word; an exclusion
 * cue takes either preposition ("apart from/of", "aside from/of"); a kind word
 * that is itself a relation's nominal after a cue of that relation ("drugs used
 * for the tx of X") names the answer again, not a second set. Wordings of our own.
 */

const E = {
  gout: ['gout', 'Disease', 'Disease::DOID:13189'],
  colchicine: ['colchicine', 'Compound', 'Compound::DB01394'],
  probenecid: ['probenecid', 'Compound', 'Compound::DB01032'],
  kdr: ['KDR', 'Gene', 'Gene::3791'],
  flt3: ['FLT3', 'Gene', 'Gene::2322'],
  sorafenib: ['sorafenib', 'Compound', 'Compound::DB00398'],
  wnt: ['Wnt signaling', 'Pathway', 'Pathway::WP363'],
  nausea: ['nausea', 'Side Effect', 'Side Effect::C0027497'],
} satisfies Record<string, Mention>;

const read = readLinked;

const chains = (r: QuestionReading) =>
  r.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}:${a.chain.map((h) => h.edges[0].metaedge).join('>')}`).sort((a, b) => a.localeCompare(b));
const excluded = (r: QuestionReading) => r.excluded.map((e) => e.name).sort((a, b) => a.localeCompare(b));

describe('"other K" sets aside the Ks named before it', () => {
  it.each([
    ['We already know colchicine is given for gout; what other drugs are?', ['colchicine'], ['gout:CtD']],
    ['KDR sits in Wnt signaling. Which additional genes belong to Wnt signaling?', ['KDR'], ['Wnt signaling:GpPW']],
    ['Knowing that sorafenib binds KDR, which other compounds bind KDR?', ['sorafenib'], ['KDR:CbG']],
  ])('%s', (text, out, anchors) => {
    const r = read(text, ...[E.colchicine, E.gout, E.kdr, E.wnt, E.sorafenib].filter((e) => text.includes(e[0])));
    expect(excluded(r)).toEqual(out);
    expect(chains(r)).toEqual(anchors);
  });

  it('an entity of the kind named after the word is a constraint, not set aside', () => {
    const r = read('Which other genes interact with FLT3?', E.flt3);
    expect(r.excluded).toEqual([]);
    expect(chains(r)).toEqual(['FLT3:GiG']);
  });
});

describe('an exclusion cue takes either preposition', () => {
  it.each([['Which compounds treat gout apart of probenecid?'], ['Aside of probenecid, what treats gout?']])('%s', (text) => {
    const r = read(text, E.probenecid, E.gout);
    expect(excluded(r)).toEqual(['probenecid']);
    expect(chains(r)).toEqual(['gout:CtD']);
  });
});

describe("a relation's nominal after a cue of that relation restates it", () => {
  it.each([
    ['Which meds are used for tx of gout?', ['gout:CtD']],
    ['Which medicines are given as therapy for gout but do not cause nausea?', ['!nausea:CcSE', 'gout:CtD']],
  ])('%s', (text, anchors) => {
    const r = read(text, ...[E.gout, E.nausea].filter((e) => text.includes(e[0])));
    expect(r.answerKind).toBe('Compound');
    expect(chains(r)).toEqual(anchors);
  });
});

describe('a cue word clipped and closed with a period stands for the word', () => {
  it.each([
    ['Which compounds treat gout, excl. probenecid?', ['probenecid'], ['gout:CtD']],
    ['What drugs are used for gout, exc. probenecid?', ['probenecid'], ['gout:CtD']],
  ])('%s', (text, out, anchors) => {
    const r = read(text, E.probenecid, E.gout);
    expect(excluded(r)).toEqual(out);
    expect(chains(r)).toEqual(anchors);
  });

  it('a clipped exclusion before a clause sets a set aside, as the full word does', () => {
    const r = read('Genes bound by sorafenib, excl. those that interact with FLT3?', E.sorafenib, E.flt3);
    expect(chains(r)).toEqual(['!FLT3:GiG', 'sorafenib:CbG']);
  });

  it('"w/o" is a negation', () => {
    const r = read('Which drugs treat gout w/o causing nausea?', E.gout, E.nausea);
    expect(chains(r)).toEqual(['!nausea:CcSE', 'gout:CtD']);
  });
});

describe('a clause read as context relates nothing to the answer', () => {
  it.each([
    ['Re: gout-treating compounds\n\nWhich genes does sorafenib bind?', ['sorafenib:CbG']],
    ['Subject: nausea-causing drugs\n\nWhich genes does sorafenib bind?', ['sorafenib:CbG']],
  ])('%s', (text, anchors) => {
    const r = read(text, ...[E.gout, E.nausea, E.sorafenib].filter((e) => text.includes(e[0])));
    expect(chains(r)).toEqual(anchors);
    expect(r.answerKind).toBe('Gene');
  });

  it.each([
    ['Subject: KDR-binding compounds\n\nWhich diseases are treated by any of the compounds that bind KDR?', ['KDR:CbG>CtD']],
    ['Re: Kdr-binding drugs\n\nWhich genes are upregulated by any of the drugs that bind KDR?', ['KDR:CbG>CuG']],
  ])('a header restating the asked entity adds no hop to its chain: %s', (text, anchors) => {
    const r = read(text, ...(text.includes('Kdr') ? [['Kdr', 'Gene', 'Gene::3791'] satisfies Mention] : []), E.kdr);
    expect(chains(r)).toEqual(anchors);
  });
});

describe('exclusion by a verb of removal with its particle, or by a preposition of exclusion', () => {
  it.each([
    ['Which drugs treat gout, ruling out any that cause nausea?'],
    ['Drugs for gout, filtering out those causing nausea'],
    ['Which compounds treat gout sans those that cause nausea?'],
  ])('%s', (text) => {
    const r = read(text, E.gout, E.nausea);
    expect(chains(r)).toEqual(['!nausea:CcSE', 'gout:CtD']);
  });

  it('"excepting" names a member set aside', () => {
    const r = read('Which compounds treat gout, excepting probenecid?', E.gout, E.probenecid);
    expect(excluded(r)).toEqual(['probenecid']);
  });
});

describe('a negation looking back takes its verb with a preposition stranded at the end', () => {
  it('"… that B does not bind to" negates B over the same relation', () => {
    const r = read('Which genes does sorafenib bind that colchicine does not bind to?', E.sorafenib, E.colchicine);
    expect(chains(r)).toEqual(['!colchicine:CbG', 'sorafenib:CbG']);
  });
});

describe('a clause opening on an exclusion restricts the answer asked for before it', () => {
  it.each([
    ['Which drugs treat gout? Ignore any that cause nausea.', ['!nausea:CcSE', 'gout:CtD'], []],
    ['List the drugs that treat gout; skip the ones causing nausea.', ['!nausea:CcSE', 'gout:CtD'], []],
    ['Which drugs treat gout? Please leave out probenecid.', ['gout:CtD'], ['probenecid']],
  ])('%s', (text, anchors, out) => {
    const r = read(text, ...[E.gout, E.nausea, E.probenecid].filter((e) => text.includes(e[0])));
    expect(chains(r)).toEqual(anchors);
    expect(excluded(r)).toEqual(out);
  });

  it('a context clause without an exclusion stays context', () => {
    const r = read('My patient has nausea. Which drugs treat gout?', E.nausea, E.gout);
    expect(chains(r)).toEqual(['gout:CtD']);
  });
});
