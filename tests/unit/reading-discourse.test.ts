import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import { arrowsAsSentences, setsTakenUp } from '@/lib/reading/discourse';
import { findKindWords } from '@/lib/reading/kind-words';
import type { QuestionReading } from '@/lib/llm/offline/types';

/**
 * How a question's sentences refer to each other (lib/reading/discourse.ts):
 * a topic sentence naming an entity that the asking sentence takes up by
 * "it"/"its", a set named in an earlier sentence taken up by "those"/"them",
 * an arrow note read as sentences with its question in the last part, "#" and
 * "no. of" as counts, and a clause without "that" after a plural kind word.
 * Wordings are this file's own, over several metaedges in both directions.
 */

const read = readLinked;
const chains = (u: QuestionReading) =>
  u.anchors.map((a) => `${a.negated ? 'not ' : ''}${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);

const SORAFENIB: Mention = ['sorafenib', 'Compound', 'Compound::DB00398'];
const SORAFENIB_: Mention = ['Sorafenib', 'Compound', 'Compound::DB00398'];
const BRCA2: Mention = ['BRCA2', 'Gene', 'Gene::675'];
const XDH: Mention = ['XDH', 'Gene', 'Gene::7498'];
const LIVER: Mention = ['liver', 'Anatomy', 'Anatomy::UBERON:0002107'];
const MIGRAINE: Mention = ['migraine', 'Disease', 'Disease::DOID:6364', [['Side Effect', 'Side Effect::C0149931']]];

describe('a pronoun in the asking sentence takes up the entity a topic sentence names, where the pronoun stands', () => {
  it.each([
    ['Consider sorafenib. Which pathways contain the genes it binds?', SORAFENIB, 'Pathway', 'sorafenib:CbG>GpPW'],
    ['Start from BRCA2. What diseases show upregulation of the genes it interacts with?', BRCA2, 'Disease', 'BRCA2:GiG>DuG'],
    ['Think of sorafenib. Which drug classes include compounds resembling it?', SORAFENIB, 'Pharmacologic Class', 'sorafenib:CrC>PCiC'],
    ['Focus on migraine. Which symptoms do the diseases resembling it present?', MIGRAINE, 'Symptom', 'migraine:DrD>DpS'],
  ])('%s', (text, entity, kind, chain) => {
    const u = read(text, entity);
    expect(u.answerKind).toBe(kind);
    expect(chains(u)).toEqual([chain]);
  });

  it('in a yes/no, the entity taken up relates through the phrase around the pronoun', () => {
    const u = read('Consider XDH. Is BRCA2 upregulated in any tissue where it is downregulated?', XDH, BRCA2);
    expect(u.outputFormat).toBe('yesno');
    expect(u.answerKind).toBe('Anatomy');
    expect(chains(u).sort()).toEqual(['BRCA2:AuG', 'XDH:AdG']);
  });
});

describe('a plural pronoun takes up the set an earlier sentence named', () => {
  it.each([
    ['Sorafenib is prescribed for several diseases. Which genes are associated with those?', SORAFENIB_, 'Gene', 'Sorafenib:CtD>DaG'],
    ['XDH interacts with a few genes. Which pathways include them?', XDH, 'Pathway', 'XDH:GiG>GpPW'],
    ['Sorafenib treats some diseases. Which diseases resemble any of those?', SORAFENIB_, 'Disease', 'Sorafenib:CtD>DrD'],
  ])('%s', (text, entity, kind, chain) => {
    const u = read(text, entity);
    expect(u.answerKind).toBe(kind);
    expect(chains(u)).toEqual([chain]);
  });

  it('reads the pronoun as a word of the earlier kind; "these" beside options points at them', () => {
    const text = 'BRCA2 is expressed in some tissues. Which of them is the liver?';
    expect(setsTakenUp(text, findKindWords(text), [], false).map((w) => [w.phrase, w.kind])).toEqual([['them', 'Anatomy']]);
    const options = 'Some genes bind sorafenib. Which of these is XDH?';
    expect(setsTakenUp(options, findKindWords(options), [], true)).toEqual([]);
    // Entities named after the kind word are what "them" takes up.
    const entities = 'Two genes: BRCA2 and XDH. Which pathways hold both of them?';
    const named = [
      { start: 11, end: 16 },
      { start: 21, end: 24 },
    ];
    expect(setsTakenUp(entities, findKindWords(entities), named, false)).toEqual([]);
  });

  it('a topic sentence saying what an entity is states no membership asked about', () => {
    const u = read(
      'Sorafenib is a compound binding some genes, and those genes are expressed in certain tissues. Is BRCA2 downregulated in any of those tissues?',
      SORAFENIB_,
      BRCA2,
    );
    expect(u.outputFormat).toBe('yesno');
    expect(u.answerKind).toBe('Anatomy');
    expect(chains(u).sort()).toEqual(['BRCA2:AdG', 'Sorafenib:CbG>AeG']);
  });
});

describe('an arrow note is read as sentences, its question asked in the last part', () => {
  it('keeps offsets and marks where the last part opens', () => {
    const note = arrowsAsSentences('liver => diseases');
    expect(note).toEqual({ text: 'liver.   diseases', last: 9 });
    expect(arrowsAsSentences('no arrow here')).toBeNull();
  });

  it.each([
    ['Diseases localizing to the liver -> # of drugs treating any of them?', LIVER, 'Compound', 'count', 'liver:DlA>CtD'],
    ['BRCA2 upregulated in which tissues => diseases localized in them?', BRCA2, 'Disease', 'list', 'BRCA2:AuG>DlA'],
    ['XDH expression → no. of tissues?', XDH, 'Anatomy', 'count', 'XDH:AeG'],
    ['Genes downregulated in migraine > compounds binding any of them?', MIGRAINE, 'Compound', 'list', 'migraine:DdG>CbG'],
  ])('%s', (text, entity, kind, format, chain) => {
    const u = read(text, entity);
    expect(u.answerKind).toBe(kind);
    expect(u.outputFormat).toBe(format);
    expect(chains(u)).toEqual([chain]);
  });
});

describe('a clause without "that" after a plural kind word describes it', () => {
  it.each([
    ['Which diseases show upregulation of the genes BRCA2 regulates?', BRCA2, 'BRCA2:Gr>G>DuG'],
    ['How many diseases resemble the diseases sorafenib treats?', SORAFENIB, 'sorafenib:CtD>DrD'],
  ])('%s', (text, entity, chain) => {
    expect(chains(read(text, entity))).toEqual([chain]);
  });
});
