import { describe, expect, it } from 'vitest';
import { readLinked, type Mention } from '../support/linked-reading';
import type { QuestionReading } from '@/lib/llm/offline/types';

// A post closed by hashtags: the tags label its topic and ask nothing; a '#' there is neither a count nor a last option.
const chains = (u: QuestionReading) => u.anchors.map((a) => `${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);
const texts = (u: QuestionReading) => u.options.map((o) => o.text);

const EGFR: Mention = ['EGFR', 'Gene', 'Gene::1956'];
const ASPIRIN: Mention = ['aspirin', 'Compound', 'Compound::DB00945'];
const GOUT: Mention = ['gout', 'Disease', 'Disease::DOID:13189'];
const DISEASES: Mention[] = [
  ['psoriasis', 'Disease', 'Disease::DOID:8893'],
  ['asthma', 'Disease', 'Disease::DOID:2841'],
  ['migraine', 'Disease', 'Disease::DOID:6364'],
  ['glaucoma', 'Disease', 'Disease::DOID:1686'],
];

describe('hashtags closing a question', () => {
  it('options written after the ask stay the options when tags follow them', () => {
    const u = readLinked(
      'Drugs binding EGFR — which of these conditions do they treat? psoriasis / asthma / migraine / glaucoma #oncology #help',
      EGFR,
      ...DISEASES,
    );
    expect(texts(u)).toEqual(['psoriasis', 'asthma', 'migraine', 'glaucoma']);
    expect(u.outputFormat).toBe('option');
    expect(chains(u)).toEqual(['EGFR:CbG>CtD']);
  });

  it('a closing tag asks for no count', () => {
    const u = readLinked('which genes does aspirin bind? #pharmacology', ASPIRIN);
    expect(u.outputFormat).not.toBe('count');
    expect(chains(u)).toEqual(['aspirin:CbG']);
  });

  it("a tag whose word is a linked entity keeps the word, losing only its '#'", () => {
    const u = readLinked('what compounds are used to treat #gout', GOUT);
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['gout:CtD']);
  });

  it("a number sign before 'of' inside the question still counts", () => {
    const u = readLinked('# of genes aspirin binds? #pharmacology', ASPIRIN);
    expect(u.outputFormat).toBe('count');
  });
});
