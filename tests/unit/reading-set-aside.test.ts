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
