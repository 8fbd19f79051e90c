import { describe, expect, it } from 'vitest';
import { aKind, bothPlural, kindNoun, mention, mentionPair, pluralVerb, relationPhrase, sentence } from '../../lib/eval/generate/lexicon';
import { leaksAnswer } from '../../lib/eval/generate/leak';
import { planSlots } from '../../lib/eval/generate/biomedhop';
import { InvalidGenerationOptions } from '../../lib/eval/generate/errors';
import { Rng } from '../../lib/eval/generate/random';

const gene = { id: 'Gene::672', kind: 'Gene', name: 'BRCA1' };
const gene2 = { id: 'Gene::675', kind: 'Gene', name: 'BRCA2' };
const liver = { id: 'Anatomy::UBERON:0002107', kind: 'Anatomy', name: 'liver' };
const heart = { id: 'Anatomy::UBERON:0000948', kind: 'Anatomy', name: 'heart' };
const asthma = { id: 'Disease::DOID:2841', kind: 'Disease', name: 'asthma' };

describe('question wording', () => {
  it('conjugates verb phrases for plural subjects', () => {
    expect(pluralVerb('is bound by')).toBe('are bound by');
    expect(pluralVerb('covaries with')).toBe('covary with');
    expect(pluralVerb('expresses')).toBe('express');
    expect(pluralVerb('treats')).toBe('treat');
    expect(pluralVerb('localizes to')).toBe('localize to');
    expect(bothPlural('are associated with')).toBe('are both associated with');
    expect(bothPlural('treat')).toBe('both treat');
  });

  it('reads a metaedge from either end', () => {
    expect(relationPhrase('CtD', 'out')).toBe('treats');
    expect(relationPhrase('CtD', 'in')).toBe('is treated by');
    expect(relationPhrase('CtD', 'in', true)).toBe('are treated by');
    expect(relationPhrase('CrC', 'both')).toBe('resembles');
    expect(() => relationPhrase('XyZ', 'out')).toThrow(/no phrasing/);
  });

  it('names nodes so that bare symbols read clearly', () => {
    expect(mention(gene)).toBe('the gene BRCA1');
    expect(mention(liver)).toBe('the liver');
    expect(mention(asthma)).toBe('asthma');
    expect(mentionPair(gene, gene2)).toBe('the genes BRCA1 and BRCA2');
    expect(mentionPair(liver, heart)).toBe('the liver and the heart');
    expect(kindNoun('Pharmacologic Class', true)).toBe('pharmacologic classes');
    expect(aKind('Anatomy')).toBe('an anatomical structure');
    expect(sentence('the  gene BRCA1 ')).toBe('The gene BRCA1');
  });

  it('detects an answer given away in the question, as whole words only', () => {
    expect(leaksAnswer('Which gene is bound by Aspirin?', ['aspirin'])).toBe(true);
    expect(leaksAnswer('Which disease resembles breast cancer?', ['Breast Cancer'])).toBe(true);
    expect(leaksAnswer('Which disease resembles breast cancers?', ['breast cancer'])).toBe(false);
    expect(leaksAnswer('Is it AR or not?', ['AR'])).toBe(false);
  });
});

describe('slot planning', () => {
  it('lets families take turns and cycles each through its renderings', () => {
    expect(planSlots({ seed: 1, count: 9 }).map((s) => `${s.family}/${s.rendering}`)).toEqual([
      'shared_neighbor/mcq',
      'intersection/mcq',
      'path/mcq',
      'count/count',
      'shared_neighbor/open',
      'intersection/open',
      'path/open',
      'count/count',
      'shared_neighbor/mcq',
    ]);
  });

  it('rejects impossible or out-of-range requests', () => {
    expect(() => planSlots({ seed: 1, count: 0 })).toThrow(InvalidGenerationOptions);
    expect(() => planSlots({ seed: 1, count: 3, families: ['path'], renderings: ['count'] })).toThrow(/count-only/);
  });
});

describe('seeded randomness', () => {
  it('repeats per seed and differs across seeds', () => {
    const draw = (seed: string) => {
      const rng = new Rng(seed);
      return [rng.int(1000), rng.shuffle([1, 2, 3, 4, 5]), rng.pick(['a', 'b', 'c'])];
    };
    expect(draw('x')).toEqual(draw('x'));
    expect(draw('x')).not.toEqual(draw('y'));
    expect(new Rng('s').child('paths')).toBe('s/paths');
  });
});
