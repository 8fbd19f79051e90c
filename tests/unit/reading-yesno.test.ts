import { readLinked, type Mention } from '../support/linked-reading';
import { describe, expect, it } from 'vitest';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { writeSubquestions } from '@/lib/reading/subquestions';

/**
 * Yes/no on a given pair, read by construction: the claim's polarity comes
 * from a negation between its ends and a predicate of falsity framing it
 * ("would it be a mistake to claim …"), never from a phrase per wording; a
 * negated auxiliary opening the question is its form, not a negation; and a
 * claim's hop question names both ends, so a method seeding a hop from it
 * reads the pair's own edges. Wordings of our own.
 */

const E = {
  gout: ['gout', 'Disease', 'Disease::DOID:13189'],
  colchicine: ['colchicine', 'Compound', 'Compound::DB01394'],
  febuxostat: ['febuxostat', 'Compound', 'Compound::DB04854'],
  sorafenib: ['sorafenib', 'Compound', 'Compound::DB00398'],
  kdr: ['KDR', 'Gene', 'Gene::3791'],
  liver: ['liver', 'Anatomy', 'Anatomy::UBERON:0002107'],
  tp53: ['TP53', 'Gene', 'Gene::7157'],
  lupus: ['lupus', 'Disease', 'Disease::DOID:9074'],
} satisfies Record<string, Mention>;

const read = readLinked;

/** "subject METAEDGE object" per claim, "not …" when negated. */
const claims = (r: QuestionReading) => r.propositions.map((p) => `${p.negated ? 'not ' : ''}${p.subject.name} ${p.hop.edges[0].metaedge} ${p.object.name}`);

describe('the polarity of a claim on a given pair', () => {
  it.each([
    ['Does sorafenib bind KDR?', 'sorafenib CbG KDR'],
    ['Is it so that sorafenib fails to bind KDR?', 'not sorafenib CbG KDR'],
    ['Would it be a mistake to claim sorafenib binds KDR?', 'not sorafenib CbG KDR'],
    ['Is it untrue that sorafenib binds KDR?', 'not sorafenib CbG KDR'],
    ['Am I mistaken in believing that sorafenib binds KDR?', 'not sorafenib CbG KDR'],
    ['Would it be wrong to say that sorafenib does not bind KDR?', 'sorafenib CbG KDR'],
  ])('%s', (text, claim) => {
    const r = read(text, E.sorafenib, E.kdr);
    expect(r.outputFormat).toBe('yesno');
    expect(claims(r)).toEqual([claim]);
  });

  it.each([
    ["Isn't febuxostat prescribed for gout?", 'febuxostat+gout'],
    ["Doesn't colchicine treat gout?", 'colchicine+gout'],
    ["Aren't TP53 transcripts found in the liver?", 'TP53+liver'],
  ])('a negated auxiliary opening the question asks the claim itself: %s', (text, pair) => {
    const entities = [E.febuxostat, E.colchicine, E.gout, E.tp53, E.liver].filter((e) => text.includes(e[0]));
    const r = read(text, ...entities);
    expect(r.outputFormat).toBe('yesno');
    expect(r.anchors.every((a) => !a.negated)).toBe(true);
    expect(r.propositions.map((p) => `${p.negated ? 'not ' : ''}${[p.subject.name, p.object.name].sort((a, b) => a.localeCompare(b)).join('+')}`)).toEqual([
      pair
        .split('+')
        .sort((a, b) => a.localeCompare(b))
        .join('+'),
    ]);
  });
});

describe("a claim's hop question", () => {
  it('names both ends of the pair, so both seed the hop', () => {
    const r = read('Would it be a mistake to claim sorafenib binds KDR?', E.sorafenib, E.kdr);
    const [hop] = writeSubquestions(r);
    expect(hop).toMatch(/sorafenib/i);
    expect(hop).toMatch(/KDR/);
    expect(hop.startsWith('Is ')).toBe(true);
  });
});

describe('the clause that asks', () => {
  it('"that" after a noun opens a relative clause, no demonstrative: the context sentence stays context', () => {
    const text = 'I keep reading about sorafenib. Is KDR one of the genes that drugs for gout bind?';
    const r = read(text, E.sorafenib, E.kdr, E.gout);
    expect(r.outputFormat).toBe('yesno');
    expect(r.anchors.map((a) => a.entity.name)).not.toContain('sorafenib');
    expect(r.anchors.map((a) => a.entity.name).sort((a, b) => a.localeCompare(b))).toEqual(['gout', 'KDR']);
  });

  it.each([['lupus medicines binding KDR, yes or no?'], ['gout drugs binding KDR y/n']])(
    'a plural kind word opening a clause with a participle after it is a telegraphic "are there": %s',
    (text) => {
      const r = read(text, ...[E.lupus, E.gout, E.kdr].filter((e) => text.includes(e[0])));
      expect(r.outputFormat).toBe('yesno');
      expect(r.answerKind).toBe('Compound');
      expect(r.propositions).toEqual([]);
      expect(r.anchors.map((a) => `${a.entity.kind}:${a.chain[0].edges[0].metaedge}`).sort((a, b) => a.localeCompare(b))).toEqual(['Disease:CtD', 'Gene:CbG']);
    },
  );
});
