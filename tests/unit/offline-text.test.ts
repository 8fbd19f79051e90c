import { describe, expect, it } from 'vitest';
import { contentTerms, normalise, splitSentences, stem, wordTokens } from '@/lib/llm/offline/text';
import { matchOption, parseOptions, splitInlineOptions } from '@/lib/reading/options';
import { Bm25Index, bm25Scores, lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { findQuestionCues } from '@/lib/reading/question-cues';
import { findRelationCues } from '@/lib/reading/relation-cues';
import { findKindWords } from '@/lib/reading/kind-words';
import { normaliseName } from '@/lib/kg/normalise';

describe('text', () => {
  it('normalises exactly like the KG', () => {
    for (const s of ["  Crohn's   Disease. ", 'TNF-α', 'Sjögren syndrome']) expect(normalise(s)).toBe(normaliseName(s));
    expect(normalise("  Crohn's   Disease. ")).toBe('crohn s disease');
  });

  it('tokenises with offsets and splits a Greek letter into its own word', () => {
    expect(wordTokens('TNFα up')).toEqual([
      { text: 'tnf', start: 0, end: 4 },
      { text: 'alpha', start: 0, end: 4 },
      { text: 'up', start: 5, end: 7 },
    ]);
  });

  it('stems inflections together and drops stopwords', () => {
    expect(['treats', 'treated', 'treating', 'treat'].map(stem)).toEqual(['treat', 'treat', 'treat', 'treat']);
    expect(contentTerms('Which drugs are treating the diseases?')).toEqual(['drug', 'treat', 'disease']);
  });

  it('splits sentences with offsets, keeping abbreviations and decimals inside', () => {
    const text = 'Levels rose 2.5 fold, e.g. In mice. Treatment (vs. placebo) helped! Was it safe? Yes.';
    expect(splitSentences(text).map((s) => s.text)).toEqual(['Levels rose 2.5 fold, e.g. In mice.', 'Treatment (vs. placebo) helped!', 'Was it safe?', 'Yes.']);
    const [, second] = splitSentences(text);
    expect(text.slice(second.start, second.end)).toBe(second.text);
  });
});

describe('options', () => {
  it('reads records, lists and inline options', () => {
    expect(parseOptions({ B: ' NOD2 ', A: 'IL23R' })).toEqual([
      { letter: 'A', text: 'IL23R' },
      { letter: 'B', text: 'NOD2' },
    ]);
    expect(parseOptions(['x', 'y']).map((o) => o.letter)).toEqual(['A', 'B']);
    const text = 'Which vitamin? Not vitamin A. Options: A) vitamin D\nB) vitamin K, C) vitamin E';
    const { stem, options } = splitInlineOptions(text);
    expect(stem).toBe('Which vitamin? Not vitamin A. Options:');
    expect(options.map((o) => [o.letter, o.text])).toEqual([
      ['A', 'vitamin D'],
      ['B', 'vitamin K'],
      ['C', 'vitamin E'],
    ]);
    expect(text.slice(options[1].start, options[1].end)).toBe('vitamin K');
    expect(splitInlineOptions('Is vitamin A. needed?').options).toEqual([]);
  });

  it('matches an answer to a letter or an option text', () => {
    const options = parseOptions({ A: 'IL23R', B: 'NOD2' });
    expect(matchOption('(B)', options)).toBe('B');
    expect(matchOption('Answer: a', options)).toBe('A');
    expect(matchOption('nod2', options)).toBe('B');
    expect(matchOption('APOE', options)).toBeNull();
  });
});

describe('lexical similarity', () => {
  it('is 1 for the same content, 0 for none shared, and sees inflections', () => {
    expect(lexicalSimilarity('metformin treats diabetes', 'Metformin treated diabetes.')).toBeCloseTo(1);
    expect(lexicalSimilarity('metformin treats diabetes', 'IL23R interacts with STAT3')).toBe(0);
    const partial = lexicalSimilarity('metformin treats diabetes', 'metformin binds PRKAB1');
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(1);
  });

  it('BM25 ranks by rare shared terms, deterministically', () => {
    const index = new Bm25Index([
      'multiple sclerosis associates IL23R',
      "Crohn's disease associates IL23R",
      "Crohn's disease associates NOD2",
      'metformin treats type 2 diabetes',
    ]);
    expect(index.search('which genes are associated with Crohn disease and NOD2').map((h) => h.index)).toEqual([2, 1]);
    expect(index.search('metformin', 1)).toEqual([{ index: 3, score: index.score('metformin', 3) }]);
    expect(index.similarity("Crohn's disease associates NOD2", "Crohn's disease associates IL23R")).toBeLessThan(1);
    expect(index.similarity('NOD2', 'nod2')).toBeCloseTo(1);
  });

  it("one query's BM25 without the index gives the index's scores to the digit", () => {
    const texts = [
      'multiple sclerosis associates IL23R',
      "Crohn's disease associates IL23R",
      "Crohn's disease associates NOD2 and NOD2's partner",
      'metformin treats type 2 diabetes',
      'multiple sclerosis resembles multiple sclerosis variants',
      '',
    ];
    for (const query of ['which genes are associated with Crohn disease and NOD2', 'multiple sclerosis', 'nothing shared', '', 'IL23R IL23R associates'])
      expect(bm25Scores(texts, query)).toEqual(new Bm25Index(texts).scoreAll(query));
    expect(bm25Scores([], 'multiple sclerosis')).toEqual([]);
  });
});

describe('cue lexicons', () => {
  it('finds relation cues with spans, longest phrase first, and passive voice', () => {
    const cues = findRelationCues('Drugs used to treat asthma that are co-expressed with genes regulated by TP53');
    expect(cues.map((c) => [c.phrase, c.metaedges[0], c.voice])).toEqual([
      ['used to treat', 'CtD', 'active'],
      ['co-expressed', 'GcG', 'active'],
      ['regulated by', 'Gr>G', 'passive'],
    ]);
    expect(cues[0]).toMatchObject({ start: 6, end: 19 });
  });

  it('covers inflections and synonyms', () => {
    const first = (text: string) => findRelationCues(text)[0]?.metaedges;
    expect(first('palliative for')).toEqual(['CpD']);
    expect(first('a risk gene for')).toEqual(['DaG']);
    expect(first('inhibitors of')).toContain('CbG');
    expect(first('adverse reactions')).toEqual(['CcSE']);
    expect(first('manifests as')).toEqual(['DpS']);
    expect(first('localises to')).toEqual(['DlA']);
    expect(first('over-expressed in')?.sort()).toEqual(['AuG', 'CuG', 'DuG']);
    expect(first('reduces the expression of')?.sort()).toEqual(['AdG', 'CdG', 'DdG']);
    expect(first('up regulated by')?.sort()).toEqual(['AuG', 'CuG', 'DuG', 'Gr>G']);
    expect(first('the regulation of')).toContain('Gr>G');
    expect(first('a treatment for')).toEqual(['CtD']);
    expect(first('binding partners')).toEqual(['GiG']);
    expect(first('covaries')).toEqual(['GcG']);
    expect(first('member of')).toContain('GpPW');
    expect(first('structurally similar')).toEqual(['CrC']);
    expect(first('drug class')).toEqual(['PCiC']);
  });

  it('finds count, list, yes/no, negation, comparison and sharing cues', () => {
    const kinds = (text: string) => findQuestionCues(text).map((c) => c.cue);
    expect(kinds('How many genes')).toEqual(['count']);
    expect(kinds('Name all drugs')).toEqual(['list']);
    expect(kinds('Is X linked to Y?')).toEqual(['yesno']);
    expect(kinds("Which drugs don't cause nausea")).toEqual(['negation']);
    expect(kinds('the most genes')).toEqual(['comparison']);
    expect(kinds('genes they have in common')).toEqual(['shared']);
  });

  it('finds kind words with number', () => {
    expect(findKindWords('Which side effects and drug class; a gene').map((w) => [w.kind, w.plural])).toEqual([
      ['Side Effect', true],
      ['Pharmacologic Class', false],
      ['Gene', false],
    ]);
  });
});
