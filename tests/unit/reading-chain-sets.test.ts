import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import { readQuestion } from '@/lib/reading';
import type { LinkedEntity, QuestionReading } from '@/lib/llm/offline/types';

/**
 * The sets a chain passes through when no plain kind word names them: a
 * relation noun tied to an entity ("sorafenib's targets"), a kind left unsaid
 * ("which pathways does sorafenib act on"), two sets of one kind ("compounds
 * similar to drugs for gout"), a modifier's own relation ("the drugs for gout
 * cause"), sets a yes/no clause introduces through a modifier ("any gout
 * drug"), and a collection's members in a yes/no. Links are given as the
 * linker gives them (every reading of a mention); the wordings are this file's own.
 */

type E = Mention;
const read = readLinked;

const chains = (u: QuestionReading) =>
  u.anchors.map((a) => `${a.negated ? 'not ' : ''}${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);

const SORAFENIB: E = ['sorafenib', 'Compound', 'Compound::DB00398'];
const BRCA2: E = ['BRCA2', 'Gene', 'Gene::675'];
const XDH: E = ['XDH', 'Gene', 'Gene::7498'];
const GOUT: E = ['gout', 'Disease', 'Disease::DOID:13189', [['Side Effect', 'Side Effect::C0018099']]];
const MIGRAINE: E = ['migraine', 'Disease', 'Disease::DOID:6364', [['Side Effect', 'Side Effect::C0149931']]];
const VOMITING: E = ['vomiting', 'Symptom', 'Symptom::D014839', [['Side Effect', 'Side Effect::C0042963']]];
const DIABETES: E = ['type 2 diabetes mellitus', 'Disease', 'Disease::DOID:9352', [['Side Effect', 'Side Effect::C0011860']]];
const THIAZOLIDINEDIONES: E = ['thiazolidinediones', 'Pharmacologic Class', 'Pharmacologic Class::N0000011272'];
const IL7: E = ['Interleukin-7 signaling', 'Pathway', 'Pathway::PC7_4782'];

describe('a relation noun tied to an entity names an intermediate set', () => {
  it.each([
    ["In which pathways do sorafenib's targets take part?"],
    ['Name the pathways the targets of sorafenib belong to.'],
    ['sorafenib targets: what pathways are they in?'],
  ])('%s', (text) => {
    const u = read(text, SORAFENIB);
    expect(u.answerKind).toBe('Pathway');
    expect(chains(u)).toEqual(['sorafenib:CbG>GpPW']);
    expect(u.operator).toBe('path');
  });

  it('through a noun of two words, where a direct relation would also fit the kinds', () => {
    const u = read("List the diseases associated with BRCA2's interaction partners.", BRCA2);
    expect(chains(u)).toEqual(['BRCA2:GiG>DaG']);
  });

  it('a set of the answer’s own kind, when a relation of the kind to itself stands between', () => {
    const u = read("What genes interact with sorafenib's targets?", SORAFENIB);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['sorafenib:CbG>GiG']);
  });

  it('is the answer itself when nothing relates it further', () => {
    const u = read("What are sorafenib's targets?", SORAFENIB);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['sorafenib:CbG']);
  });

  it('a count over the chain counts the last set', () => {
    const u = read("How many distinct pathways involve sorafenib's targets?", SORAFENIB);
    expect(u.outputFormat).toBe('count');
    expect(chains(u)).toEqual(['sorafenib:CbG>GpPW']);
  });
});

describe('a kind the question leaves unsaid', () => {
  it('joins an entity to an answer no metaedge reaches directly', () => {
    const u = read('Which pathways might sorafenib act upon?', SORAFENIB);
    expect(chains(u)).toEqual(['sorafenib:CbG>GpPW']);
  });
});

describe('an unsaid kind needs the relation named', () => {
  it('not through a relation of another pair: an entity linked as the wrong kind stays unrelated', () => {
    const u = read('Which genes get downregulated in migraine?', ['migraine', 'Side Effect', 'Side Effect::C0149931']);
    expect(chains(u)).toEqual(['migraine:']);
  });
});

describe('two sets of one kind', () => {
  it('a relation of the kind to itself between two of its words keeps them apart', () => {
    const u = read('What side effects are reported for compounds that resemble the medicines for gout?', GOUT);
    expect(u.answerKind).toBe('Side Effect');
    expect(chains(u)).toEqual(['gout:CtD>CrC>CcSE']);
  });
});

describe('a modifier relates its kind word by the kinds’ preferred relation, whatever verb stands next to the entity', () => {
  it('reads the disease a drug is for, not the side effect the verb could take', () => {
    const u = read('How many adverse effects can the drugs for migraine produce?', MIGRAINE);
    expect(u.outputFormat).toBe('count');
    expect(u.anchors[0].entity.kind).toBe('Disease');
    expect(chains(u)).toEqual(['migraine:CtD>CcSE']);
  });

  it('a noun modifier reads the preferred relation only (a drug for a disease treats it)', () => {
    const u = read('Which gout medications also cause vomiting?', GOUT, VOMITING);
    expect(chains(u).sort()).toEqual(['gout:CtD', 'vomiting:CcSE']);
  });
});

describe('a yes/no clause introduces a set through a modifier or a relation phrase', () => {
  it.each([['Does any gout drug bind XDH?'], ['Is XDH a target of any of the gout medicines?'], ['Is XDH among the genes that gout drugs bind?']])(
    '%s',
    (text) => {
      const u = read(text, GOUT, XDH);
      expect(u.outputFormat).toBe('yesno');
      expect(u.answerKind).toBe('Compound');
      expect(chains(u).sort()).toEqual(['XDH:CbG', 'gout:CtD']);
      expect(u.propositions).toEqual([]);
    },
  );

  it('an indefinite kind word followed by a participle', () => {
    const u = read('Does sorafenib bind a gene involved in Interleukin-7 signaling?', SORAFENIB, IL7);
    expect(u.answerKind).toBe('Gene');
    expect(chains(u).sort()).toEqual(['Interleukin-7 signaling:GpPW', 'sorafenib:CbG']);
  });
});

describe('a yes/no on a collection reads its members', () => {
  it.each([
    ['Are any thiazolidinediones prescribed for type 2 diabetes mellitus?'],
    ['Is some member of the thiazolidinediones used against type 2 diabetes mellitus?'],
  ])('%s', (text) => {
    const u = read(text, THIAZOLIDINEDIONES, DIABETES);
    expect(u.operator).toBe('yesno');
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['thiazolidinediones:PCiC', 'type 2 diabetes mellitus:CtD']);
    expect(u.propositions).toEqual([]);
  });
});

const SUMATRIPTAN: E = ['sumatriptan', 'Compound', 'Compound::DB00669'];
const PSORIASIS: E = ['psoriasis', 'Disease', 'Disease::DOID:8893'];
const ASTHMA: E = ['asthma', 'Disease', 'Disease::DOID:2841'];
const FEVER: E = ['fever', 'Symptom', 'Symptom::D005334'];
const ALLOPURINOL: E = ['allopurinol', 'Compound', 'Compound::DB00437'];

describe('a demonstrative or a pronoun takes up a set', () => {
  it('"those" with a clause after a relation of the kind to itself is another set of the answer’s kind', () => {
    const u = read('Which disorders are similar to those that sumatriptan is prescribed for?', SUMATRIPTAN);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['sumatriptan:CtD>DrD']);
  });

  it('"the ones" likewise, through a chain', () => {
    const u = read('What conditions resemble the ones treated by drugs structurally related to sumatriptan?', SUMATRIPTAN);
    expect(chains(u)).toEqual(['sumatriptan:CrC>CtD>DrD']);
  });

  it('a set named in a sentence before the question, taken up by "those"', () => {
    const u = read('A few medicines are indicated for gout. What compounds look structurally similar to those medicines?', GOUT);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['gout:CtD>CrC']);
  });

  it('an intermediate taken up by a demonstrative stays one set, whatever relation word sits in it', () => {
    const u = read('BRCA2 interacts with many genes. Which diseases are those interacting genes associated with?', BRCA2);
    expect(chains(u)).toEqual(['BRCA2:GiG>DaG']);
  });

  it('"those" with nothing of the kind to itself before it stays an exclusion of a set', () => {
    const u = read('Which genes bind sorafenib, excluding those that also bind allopurinol?', SORAFENIB, ALLOPURINOL);
    expect(chains(u).sort()).toEqual(['not allopurinol:CbG', 'sorafenib:CbG']);
  });
});

describe('a quantity is no count asked for', () => {
  it('"a number of" in the context describes, "the number of" asks', () => {
    const context = read('sorafenib binds a number of genes. In which pathways do those genes take part?', SORAFENIB);
    expect(context.outputFormat).toBe('list');
    expect(chains(context)).toEqual(['sorafenib:CbG>GpPW']);
    expect(read('Tell me the number of genes sorafenib binds.', SORAFENIB).outputFormat).toBe('count');
  });
});

describe('membership through a predicate or a relation noun', () => {
  it('a kind word after a copula and an article is the predicate, not a name for the member', () => {
    const u = read('is fever a symptom of the diseases treated by drugs in the thiazolidinediones', FEVER, THIAZOLIDINEDIONES);
    expect(u.outputFormat).toBe('yesno');
    expect(u.answerKind).toBe('Disease');
    expect(chains(u).sort()).toEqual(['fever:DpS', 'thiazolidinediones:PCiC>CtD']);
  });

  it('over a set of one hop the predicate is a claim on the pair', () => {
    const u = read('Is vomiting an adverse effect produced by sumatriptan?', VOMITING, SUMATRIPTAN);
    expect(u.answerKind).toBeNull();
    expect(u.propositions.map((p) => `${p.subject.name}-${p.hop.edges[0].metaedge}-${p.object.name}`)).toEqual(['vomiting-CcSE-sumatriptan']);
  });

  it('a relation noun names the set the member is asked about', () => {
    const u = read('Is XDH one of the targets of the medicines for gout?', XDH, GOUT);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u).sort()).toEqual(['XDH:CbG', 'gout:CtD']);
    expect(u.propositions).toEqual([]);
  });
});

describe('shorthand made a participle', () => {
  it('"tx\'d" reads as treated', () => {
    const u = read("which sx go with dz tx'd by thiazolidinediones", THIAZOLIDINEDIONES);
    expect(chains(u)).toEqual(['thiazolidinediones:PCiC>CtD>DpS']);
  });

  it('and names no kind: "the dz tx\'d by …" is another set of diseases', () => {
    const u = read("how many dz resemble the dz tx'd by analogs of sumatriptan", SUMATRIPTAN);
    expect(u.outputFormat).toBe('count');
    expect(chains(u)).toEqual(['sumatriptan:CrC>CtD>DrD']);
  });
});

describe('one noun phrase, one set', () => {
  it('a collection modifying the members’ kind word is asked for as its members, in the kind word’s number', () => {
    const u = read('Which thiazolidinediones-type medicines are prescribed for type 2 diabetes mellitus?', THIAZOLIDINEDIONES, DIABETES);
    expect(u.answerKind).toBe('Compound');
    expect(u.outputFormat).toBe('list');
    expect(chains(u).sort()).toEqual(['thiazolidinediones:PCiC', 'type 2 diabetes mellitus:CtD']);
  });

  it('a shorthand that is both a kind noun and a relation is the verb after "to"', () => {
    const u = read('what cpds are given to tx gout', GOUT);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['gout:CtD']);
  });
});

describe('what the context keeps', () => {
  it('"its" takes up the first entity named before, not every one', () => {
    const u = read('Reading about BRCA2 and its part in Interleukin-7 signaling. Which of its partner genes take part in Apoptosis?', BRCA2, IL7, [
      'Apoptosis',
      'Pathway',
      'Pathway::PC7_1684',
    ]);
    expect(chains(u).sort()).toEqual(['Apoptosis:GpPW', 'BRCA2:GiG']);
  });

  it('"hers" takes up the entity named before', () => {
    const u = read('My sister has psoriasis and mild asthma. Is sumatriptan one of the medicines that treat hers?', PSORIASIS, ASTHMA, SUMATRIPTAN);
    expect(u.anchors.map((a) => a.entity.name).sort()).toEqual(['psoriasis', 'sumatriptan']);
    expect(u.notes.join(' ')).toMatch(/'hers' takes up psoriasis/);
  });

  it('a node named in the context and again in the question constrains where the question names it', () => {
    const text = 'We looked at allopurinol last week. Besides allopurinol, which drugs treat gout?';
    const at = (mention: string, start: number, kind: string, nodeId: string): LinkedEntity => ({
      nodeId,
      kind,
      name: mention,
      mention,
      start,
      end: start + mention.length,
      score: 1,
    });
    const u = readQuestion(text, {
      links: [
        at('allopurinol', text.indexOf('allopurinol'), 'Compound', ALLOPURINOL[2]),
        at('allopurinol', text.lastIndexOf('allopurinol'), 'Compound', ALLOPURINOL[2]),
        at('gout', text.indexOf('gout'), 'Disease', GOUT[2]),
      ],
    });
    expect(u.excluded.map((e) => e.name)).toEqual(['allopurinol']);
    expect(chains(u)).toEqual(['gout:CtD']);
  });
});

describe('options written as a bare run of names', () => {
  it('read from the linker’s first reading of each name, whatever other readings a name has', () => {
    const u = readQuestion('which one is treated by drugs in the thiazolidinediones class gout migraine psoriasis or vomiting', {
      links: [
        ['thiazolidinediones', 'Pharmacologic Class', 'Pharmacologic Class::N0000011272'],
        ['gout', 'Disease', 'Disease::DOID:13189'],
        ['gout', 'Side Effect', 'Side Effect::C0018099'],
        ['migraine', 'Disease', 'Disease::DOID:6364'],
        ['psoriasis', 'Disease', 'Disease::DOID:8893'],
        ['vomiting', 'Disease', 'Disease::DOID:0000000'],
      ].map(([mention, kind, nodeId]) => {
        const start = 'which one is treated by drugs in the thiazolidinediones class gout migraine psoriasis or vomiting'.indexOf(mention);
        return { nodeId, kind, name: mention, mention, start, end: start + mention.length, score: 1 };
      }),
    });
    expect(u.options.map((o) => o.text)).toEqual(['gout', 'migraine', 'psoriasis', 'vomiting']);
    expect(u.outputFormat).toBe('option');
  });
});
