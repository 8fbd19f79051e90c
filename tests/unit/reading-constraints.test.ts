import { linksIn as linkMentions, type Mention } from '../support/linked-reading';
import { describe, expect, it } from 'vitest';
import { QuestionReadingSchema, type LinkedEntity, type QuestionReading } from '@/lib/llm/offline/types';
import { readQuestion } from '@/lib/reading';
import { answerSetQuery } from '@/lib/channels/answer-set';

/**
 * Several constraints on one answer, and what a question sets aside: a member
 * ("other than X and Y"), or a set ("but not B", "without causing Y", "that B
 * lacks"), over several metaedges and in wordings of our own. Links are given
 * as the entity linker gives them (offsets found in the text; `also` names a
 * mention's readings of other kinds).
 */

type Entity = { mention: string; kind: string; id: string; also?: { kind: string; id: string }[] };

const E = {
  gout: { mention: 'gout', kind: 'Disease', id: 'Disease::DOID:13189' },
  lupus: { mention: 'lupus', kind: 'Disease', id: 'Disease::DOID:9074' },
  glioma: { mention: 'glioma', kind: 'Disease', id: 'Disease::DOID:3070' },
  melanoma: { mention: 'melanoma', kind: 'Disease', id: 'Disease::DOID:1909' },
  colchicine: { mention: 'colchicine', kind: 'Compound', id: 'Compound::DB01394' },
  allopurinol: { mention: 'allopurinol', kind: 'Compound', id: 'Compound::DB00437' },
  febuxostat: { mention: 'febuxostat', kind: 'Compound', id: 'Compound::DB04854' },
  sorafenib: { mention: 'sorafenib', kind: 'Compound', id: 'Compound::DB00398' },
  sunitinib: { mention: 'sunitinib', kind: 'Compound', id: 'Compound::DB01268' },
  kdr: { mention: 'KDR', kind: 'Gene', id: 'Gene::3791' },
  flt3: { mention: 'FLT3', kind: 'Gene', id: 'Gene::2322' },
  wnt: { mention: 'Wnt signaling', kind: 'Pathway', id: 'Pathway::WP363' },
  liver: { mention: 'liver', kind: 'Anatomy', id: 'Anatomy::UBERON:0002107' },
  fatigue: { mention: 'fatigue', kind: 'Symptom', id: 'Symptom::D005221', also: [{ kind: 'Side Effect', id: 'Side Effect::C0015672' }] },
  rash: { mention: 'rash', kind: 'Side Effect', id: 'Side Effect::C0015230' },
  dizziness: { mention: 'dizziness', kind: 'Symptom', id: 'Symptom::D004244', also: [{ kind: 'Side Effect', id: 'Side Effect::C0012833' }] },
} satisfies Record<string, Entity>;

const linksIn = (text: string, entities: Entity[]): LinkedEntity[] =>
  linkMentions(
    text,
    entities.map((e): Mention => [e.mention, e.kind, e.id, e.also?.map((r): [string, string] => [r.kind, r.id])]),
  );

function read(text: string, ...entities: Entity[]): QuestionReading {
  return QuestionReadingSchema.parse(readQuestion(text, { links: linksIn(text, entities) }));
}

/** "!name[kind]:CtD" per anchor: negated, the entity's kind, the preferred metaedge of each hop. */
const chains = (r: QuestionReading) =>
  r.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}[${a.entity.kind}]:${a.chain.map((h) => h.edges[0].metaedge).join('>')}`);
const excluded = (r: QuestionReading) => r.excluded.map((e) => e.name);

describe('a member set aside', () => {
  it.each([
    ['Which drugs treat gout, other than colchicine and allopurinol?'],
    ['Besides colchicine or allopurinol, what is prescribed for gout?'],
    ['List the gout medications, leaving out colchicine, allopurinol.'],
    ['Name the drugs for gout except colchicine and allopurinol.'],
    ['drugs for gout minus colchicine and allopurinol?'],
  ])('every member of a coordinated run is set aside: %s', (text) => {
    const r = read(text, E.colchicine, E.allopurinol, E.gout);
    expect(excluded(r).sort()).toEqual(['allopurinol', 'colchicine']);
    expect(r.anchors.map((a) => a.entity.name)).toEqual(['gout']);
  });

  it('a run stops at the first entity that is no member of the answer kind', () => {
    const r = read('Which compounds other than sorafenib bind KDR?', E.sorafenib, E.kdr);
    expect(excluded(r)).toEqual(['sorafenib']);
    expect(chains(r)).toEqual(['KDR[Gene]:CbG']);
  });

  it('with no word naming the answer, the member set aside gives its kind', () => {
    const r = read('What else besides sorafenib binds FLT3?', E.sorafenib, E.flt3);
    expect(r.answerKind).toBe('Compound');
    expect(r.answerKindFrom).toBe('excluded');
    expect(excluded(r)).toEqual(['sorafenib']);
    expect(chains(r)).toEqual(['FLT3[Gene]:CbG']);
  });
});

describe('a set taken away', () => {
  it.each([
    ['Which genes are bound by sorafenib but not by sunitinib?'],
    ['Which genes does sorafenib bind that sunitinib does not?'],
    ["Which genes does sorafenib bind that sunitinib doesn't bind?"],
    ['Which targets of sorafenib does sunitinib lack?'],
  ])('the negated entity may come after its negation or before it: %s', (text) => {
    const r = read(text, E.sorafenib, E.sunitinib);
    expect(r.answerKind).toBe('Gene');
    expect(chains(r)).toEqual(['sorafenib[Compound]:CbG', '!sunitinib[Compound]:CbG']);
    expect(excluded(r)).toEqual([]);
  });

  it.each([['Which symptoms are seen in lupus yet absent in glioma?'], ['Which symptoms of lupus are missing from glioma?']])(
    '"absent", "missing" negate: %s',
    (text) => {
      const r = read(text, E.lupus, E.glioma);
      expect(chains(r)).toEqual(['lupus[Disease]:DpS', '!glioma[Disease]:DpS']);
    },
  );

  it('a negation reaches every entity joined to the first it governs', () => {
    const r = read('Which drugs treat gout without causing rash or dizziness?', E.gout, E.rash, E.dizziness);
    expect(chains(r)).toEqual(['gout[Disease]:CtD', '!rash[Side Effect]:CcSE', '!dizziness[Side Effect]:CcSE']);
  });

  it('a negation in the context before the question negates nothing after its own clause', () => {
    const r = read('My aunt has gout and it is not improving. Which drugs treat gout?', E.gout);
    expect(chains(r)).toEqual(['gout[Disease]:CtD']);
  });

  it('a negation that governs an entity after it does not also reach back', () => {
    const r = read('Which drugs treat gout and do not cause rash?', E.gout, E.rash);
    expect(chains(r)).toEqual(['gout[Disease]:CtD', '!rash[Side Effect]:CcSE']);
  });

  it('a negation followed by an object of its own does not reach back ("are not side effects of …")', () => {
    const r = read('Which side effects of sorafenib are not side effects of the older drugs?', E.sorafenib);
    expect(chains(r)).toEqual(['sorafenib[Compound]:CcSE']);
  });
});

describe('several constraints on one answer', () => {
  it.each([
    ['Which drug treats gout and has rash as a side effect?', ['gout[Disease]:CtD', 'rash[Side Effect]:CcSE']],
    ['Which genes take part in Wnt signaling and are expressed in the liver?', ['Wnt signaling[Pathway]:GpPW', 'liver[Anatomy]:AeG']],
    ['Which compounds bind KDR as well as FLT3?', ['KDR[Gene]:CbG', 'FLT3[Gene]:CbG']],
    ['Which disease presents both fatigue and dizziness?', ['fatigue[Symptom]:DpS', 'dizziness[Symptom]:DpS']],
    ['Which compound that binds KDR is also used to treat melanoma?', ['KDR[Gene]:CbG', 'melanoma[Disease]:CtD']],
  ])('%s', (text, expected) => {
    const entities = Object.values(E).filter((e) => text.includes(e.mention));
    const r = read(text, ...entities);
    expect(chains(r)).toEqual(expected);
    expect(['intersection', 'shared_neighbor']).toContain(r.operator);
  });
});

describe('the answer set a reading asks for', () => {
  it('a set difference: the negated anchor takes away, the member set aside is left out', () => {
    const r = read('Which drugs treat gout, other than colchicine, without causing rash?', E.gout, E.colchicine, E.rash);
    const query = answerSetQuery(r)!;
    expect(query.kind).toBe('Compound');
    expect(query.constraints.map((c) => `${c.negated ? '!' : ''}${c.anchor.name}/${c.metaedges.join('+')}/${c.direction}`)).toEqual([
      'gout/CtD/in',
      '!rash/CcSE/in',
    ]);
    expect(query.excluded.map((e) => e.name)).toEqual(['colchicine']);
  });

  it('only negated anchors ask for no set (a complement is not derivable)', () => {
    const r = read('Which drugs do not cause rash?', E.rash);
    expect(answerSetQuery(r)).toBeNull();
  });
});

describe('a step of a question keeps what the question sets aside', () => {
  it("X-R2's re-decomposition never starts from an entity the question set aside", () => {
    const question = 'Which drugs treat gout other than colchicine?';
    const whole = read(question, E.gout, E.colchicine);
    const step = 'Which drugs treat gout, and what about colchicine?';
    const alone = readQuestion(step, { links: linksIn(step, [E.gout, E.colchicine]) });
    expect(alone.anchors.map((a) => a.entity.name)).toContain('colchicine');
    const within = readQuestion(step, { links: linksIn(step, [E.gout, E.colchicine]), within: whole });
    expect(within.anchors.map((a) => a.entity.name)).toEqual(['gout']);
    expect(within.excluded.map((e) => e.name)).toEqual(['colchicine']);
  });

  it('and keeps its negated anchors negated', () => {
    const whole = read('Which genes are bound by sorafenib but not by sunitinib?', E.sorafenib, E.sunitinib);
    const step = 'Which genes do sorafenib and sunitinib bind?';
    const within = readQuestion(step, { links: linksIn(step, [E.sorafenib, E.sunitinib]), within: whole });
    expect(chains(within)).toEqual(['sorafenib[Compound]:CbG', '!sunitinib[Compound]:CbG']);
  });
});

describe('an entity modifying the kind word relates to it by the kinds’ preferred relation', () => {
  it.each([
    ['Which drugs for gout have rash as a side effect?'],
    ['Which gout drugs have rash as a side effect?'],
    ['Name a medication against gout that may cause rash.'],
    ['Which gout-medications list rash as an adverse effect?'],
  ])('the disease is what the drugs treat, not a side effect beside the other: %s', (text) => {
    const r = read(text, { ...E.gout, also: [{ kind: 'Side Effect', id: 'Side Effect::C0018099' }] }, E.rash);
    expect(chains(r)).toEqual(['gout[Disease]:CtD', 'rash[Side Effect]:CcSE']);
    expect(r.answerKind).toBe('Compound');
  });

  it('a relation phrase the question names still wins over the modifier', () => {
    const r = read('Which melanoma drugs are known to cause rash?', E.melanoma, E.rash);
    expect(chains(r)).toEqual(['melanoma[Disease]:CtD', 'rash[Side Effect]:CcSE']);
  });
});
