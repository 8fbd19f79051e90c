import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import type { QuestionReading } from '@/lib/llm/offline/types';

// How clauses bind relation words to the sets of a chain; wordings of our own.
const chains = (u: QuestionReading) =>
  u.anchors.map(
    (a) =>
      `${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => (e.metaedge.includes('>') ? `${e.metaedge}/${e.fromEnd}` : e.metaedge)).join('|')).join('>')}`,
  );
const texts = (u: QuestionReading) => u.options.map((o) => o.text);

const STAT3: Mention = ['STAT3', 'Gene', 'Gene::6774'];
const CLOZAPINE: Mention = ['clozapine', 'Compound', 'Compound::DB00363'];
const PSORIASIS: Mention = ['psoriasis', 'Disease', 'Disease::DOID:8893'];
const GLYCOLYSIS: Mention = ['Glycolysis', 'Pathway', 'Pathway::WP534'];
const NAUSEA: Mention = ['nausea', 'Symptom', 'Symptom::D009325'];
const LUPUS: Mention = ['lupus', 'Disease', 'Disease::DOID:9074'];
const genes = (...names: string[]): Mention[] => names.map((n) => [n, 'Gene', `Gene::${n}`]);

describe('relation words and their clauses', () => {
  it('a nominal before "by" is passive: "under control/regulation by X" has X regulating', () => {
    expect(chains(readLinked('Which genes are under regulation by STAT3?', STAT3))).toEqual(['STAT3:Gr>G/source']);
  });

  it('a relation word hyphened to an entity is spent on it, not on the sets beside it', () => {
    expect(chains(readLinked('Which genes interact with the psoriasis-downregulated genes?', PSORIASIS))).toEqual(['psoriasis:DdG>GiG']);
  });

  it('an entity opening a relative clause is its subject, the word after it its verb, no relation noun', () => {
    const u = readLinked('How many diseases show upregulation of the genes that clozapine downregulates?', CLOZAPINE);
    expect(chains(u)).toEqual(['clozapine:CdG>DuG']);
  });

  it('"whose" right after a noun is a relative pronoun, not the question word', () => {
    const u = readLinked('Diseases associated with any gene whose protein binds a gene in the Glycolysis pathway?', GLYCOLYSIS);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['Glycolysis:GpPW>GiG>DaG']);
  });

  it('an answer no noun names stands at the question word, so a nearer set keeps its own relation', () => {
    const u = readLinked(
      'Which of these is upregulated in any tissue where STAT3 is downregulated: ' + 'ALB, TTR or APOB?',
      STAT3,
      ...genes('ALB', 'TTR', 'APOB'),
    );
    expect(chains(u)).toEqual(['STAT3:AdG>AuG']);
  });

  it('a kind word in brackets glossing the asked noun names the answer kind', () => {
    const u = readLinked('Which medicine families (pharmacologic classes) hold drugs that treat lupus?', LUPUS);
    expect(u.answerKind).toBe('Pharmacologic Class');
    expect(chains(u)).toEqual(['lupus:CtD>PCiC']);
  });

  it("a relation word's gloss in brackets keeps the words it relates near it", () => {
    const u = readLinked('Which diseases are palliated (eased, not cured) by the drugs that treat any disease presenting nausea?', NAUSEA);
    expect(chains(u)).toEqual(['nausea:DpS>CtD>CpD']);
  });
});

describe('choices dictated after a bare question word or a set opener', () => {
  const DISEASES: Mention[] = [['gout', 'Disease', 'Disease::DOID:13189'], ['asthma', 'Disease', 'Disease::DOID:2841'], PSORIASIS];
  const CLASS: Mention = ['xanthine oxidase inhibitors', 'Pharmacologic Class', 'Pharmacologic Class::N0000175485'];

  it('"… treat what A or B or C" asks over the closing run', () => {
    const u = readLinked('members of xanthine oxidase inhibitors treat what gout or asthma or psoriasis', CLASS, ...DISEASES);
    expect(texts(u)).toEqual(['gout', 'asthma', 'psoriasis']);
    expect(chains(u)).toEqual(['xanthine oxidase inhibitors:PCiC>CtD']);
  });

  it('"out of A B and C, which one …" reads a run joined by "and" as choices; a plural question after it reads anchors', () => {
    const u = readLinked('out of gout asthma and psoriasis which one do xanthine oxidase inhibitors treat', ...DISEASES, CLASS);
    expect(texts(u)).toEqual(['gout', 'asthma', 'psoriasis']);
    const shared = readLinked('among gout asthma and psoriasis which genes are shared', ...DISEASES);
    expect(shared.options).toEqual([]);
    expect(shared.anchors).toHaveLength(3);
  });
});
