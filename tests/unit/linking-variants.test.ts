import { describe, expect, it } from 'vitest';
import { narrowerTerms, type OntologyTerm } from '../../lib/kg/import/ontology-genus';
import { headNounKeys, unmarkedPossessiveKeys } from '../../lib/kg/linking/variants';
import { tokenize } from '../../lib/kg/query/tokens';
import { analyse } from '../../lib/nlp/english';

const term = (doid: string, name: string, description: string): OntologyTerm => ({ doid, name, description });

describe('Disease Ontology terms read as the graph disease their genus leads to', () => {
  // A small ontology: the graph holds "blood cancer", "gut cancer" and "windpipe cancer" (made-up organs and terms).
  const graph = new Map([
    ['1', 'blood cancer'],
    ['2', 'gut cancer'],
    ['3', 'windpipe cancer'],
    ['9', 'itch'],
  ]);
  const terms = [
    term('1', 'blood cancer', 'A cancer of the blood.'),
    term('2', 'gut cancer', 'A cancer located in the gut.'),
    term('3', 'windpipe cancer', 'A cancer located in the windpipe.'),
    term('4', 'cancer', 'A disease of cellular proliferation.'),
    term('9', 'itch', 'A sensation.'),
    term('10', 'gutoma', 'A blood cancer that arises in cells that reside in the gut and in other organs.'),
    term('11', 'small cell gutoma', 'A gutoma that is made of small cells.'),
    term('12', 'windpipe carcinoma', 'A windpipe cancer that affects the airway from the gut to the lungs.'),
    term('13', 'marrow gutoma', 'A blood cancer that affects the gut marrow.'),
    term('14', 'chronic itch', 'An itch that lasts.'),
    term('15', 'gut cancer', 'A gut cancer named like the graph disease.'),
    term('16', 'orphan', 'A thing with no genus in the file.'),
  ];
  const read = new Map(narrowerTerms(terms, graph).map((t) => [t.name, t]));

  it("follows the definition's genus up to the graph, counting the steps", () => {
    expect(read.get('chronic itch')).toEqual({ name: 'chronic itch', doid: '9', steps: 1 });
    expect(read.get('windpipe carcinoma')?.doid).toBe('3');
  });

  it("reads a cancer as the organ's cancer its definition places it in when its name bears the organ's stem", () => {
    // "gutoma": a blood cancer placed in the gut, and named after it: gut cancer, the nearer kind. Its kinds inherit that.
    expect(read.get('gutoma')?.doid).toBe('2');
    expect(read.get('small cell gutoma')).toMatchObject({ doid: '2', steps: 2 });
    // An organ the definition names that the term's name does not bear stays aside ("from the gut" in a windpipe carcinoma).
    expect(read.get('windpipe carcinoma')?.doid).toBe('3');
  });

  it('never reads an organ from the start of a longer phrase ("gut marrow")', () => {
    expect(read.get('marrow gutoma')?.doid).toBe('1');
  });

  it('skips terms the graph holds, by id or name, and terms with no genus', () => {
    expect([...read.keys()].sort()).toEqual(['chronic itch', 'gutoma', 'marrow gutoma', 'small cell gutoma', 'windpipe carcinoma']);
  });
});

describe('head nouns of a cancer', () => {
  it('reads another head noun as "cancer", as written and inverted, dropping "malignant"', () => {
    expect(headNounKeys([['pancreas', 'tumor']])).toEqual(['pancreas cancer']);
    expect(
      headNounKeys([
        ['malignant', 'neoplasm'],
        ['bone', 'malignant', 'neoplasm'],
      ]),
    ).toEqual(['bone cancer']);
    expect(headNounKeys([['carcinoma'], ['tumor', 'growth'], ['skin', 'cancer']])).toEqual([]);
  });
});

describe('eponyms without their apostrophe', () => {
  const keys = (text: string) => {
    const tokens = tokenize(text);
    return unmarkedPossessiveKeys(text, tokens, 0, tokens.length - 1, analyse(text));
  };

  it('restores the possessive of a capitalised word or one the lexicon does not know', () => {
    expect(keys('Hashimotos thyroiditis')).toEqual(['hashimoto s thyroiditis']);
    expect(keys('menieres')).toEqual(['meniere s']);
  });

  it('leaves plain plurals, double s and short words as they are', () => {
    expect(keys('genes and proteins')).toEqual([]);
    expect(keys('stress')).toEqual([]);
    expect(keys('bus')).toEqual([]);
  });
});
