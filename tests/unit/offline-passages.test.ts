import { describe, expect, it } from 'vitest';
import { extractEvidenceUnits, findEntityMentions, statedAnswer, type CandidateEntity } from '@/lib/llm/offline/passages';
import { readQuestion } from '@/lib/reading';

const CANDIDATES: CandidateEntity[] = [
  { nodeId: 'Gene::672', name: 'BRCA1', kind: 'Gene', aliases: ['breast cancer 1'] },
  { nodeId: 'Disease::DOID:1612', name: 'breast cancer', kind: 'Disease', aliases: ['breast carcinoma'] },
  { nodeId: 'Compound::DB00331', name: 'Metformin', kind: 'Compound' },
  { nodeId: 'Disease::DOID:9352', name: 'type 2 diabetes mellitus', kind: 'Disease', aliases: ['type 2 diabetes', 'T2D'] },
  { nodeId: 'Gene::367', name: 'AR', kind: 'Gene' },
];

describe('findEntityMentions', () => {
  it('finds names and aliases case-insensitively, longest first, with spans', () => {
    const text = 'Germline BRCA1 mutations raise breast-carcinoma risk; breast cancer 1 is a tumour suppressor.';
    const mentions = findEntityMentions(text, CANDIDATES);
    expect(mentions.map((m) => [m.nodeId, m.mention])).toEqual([
      ['Gene::672', 'BRCA1'],
      ['Disease::DOID:1612', 'breast-carcinoma'],
      ['Gene::672', 'breast cancer 1'],
    ]);
    expect(text.slice(mentions[1].start, mentions[1].end)).toBe('breast-carcinoma');
  });

  it('requires very short names to be written exactly', () => {
    expect(findEntityMentions('The AR gene', CANDIDATES).map((m) => m.nodeId)).toEqual(['Gene::367']);
    expect(findEntityMentions('patients were ar-negative', CANDIDATES)).toEqual([]);
  });
});

describe('extractEvidenceUnits', () => {
  const passage = {
    id: 'pmid:1',
    text: 'Metformin is widely used to treat type 2 diabetes. It did not reduce breast cancer incidence in this cohort. BRCA1 was not measured.',
  };

  it('makes one unit per sentence with entities, the predicate fitting their kinds, and negation', () => {
    const units = extractEvidenceUnits(passage, CANDIDATES);
    expect(units).toHaveLength(3);
    expect(units[0].entities.map((e) => e.name)).toEqual(['Metformin', 'type 2 diabetes mellitus']);
    expect(units[0].predicate).toMatchObject({ phrase: 'used to treat', metaedges: ['CtD'] });
    expect(units[0].negated).toBe(false);
    expect(units[0].span).toEqual({ start: 0, end: 50, text: 'Metformin is widely used to treat type 2 diabetes.' });
    expect(units[1].predicate).toBeNull();
    expect(units[1].negated).toBe(true);
    expect(passage.text.slice(units[1].entities[0].start, units[1].entities[0].end)).toBe('breast cancer');
  });
});

describe('statedAnswer', () => {
  const question = 'Is BRCA1 associated with breast cancer?';
  const u = readQuestion(question, {
    links: [
      { nodeId: 'Gene::672', kind: 'Gene', name: 'BRCA1', mention: 'BRCA1', start: 3, end: 8 },
      { nodeId: 'Disease::DOID:1612', kind: 'Disease', name: 'breast cancer', mention: 'breast cancer', start: 25, end: 38 },
    ],
  });

  it('says yes when a sentence states the claim', () => {
    const r = statedAnswer(u, [{ id: 'p1', text: 'Carriers of BRCA1 variants are strongly associated with breast cancer.' }], CANDIDATES);
    expect(r.decision).toBe('yes');
    expect(r.supportIds).toEqual(['p1:0-70']);
  });

  it('says no when the statement is negated', () => {
    const r = statedAnswer(u, [{ id: 'p1', text: 'BRCA1 was not associated with breast cancer in men.' }], CANDIDATES);
    expect(r.decision).toBe('no');
  });

  it('says maybe when no sentence states it, or passages disagree', () => {
    expect(statedAnswer(u, [{ id: 'p1', text: 'BRCA1 and breast cancer were both studied.' }], CANDIDATES).decision).toBe('maybe');
    const both = statedAnswer(
      u,
      [
        { id: 'p1', text: 'BRCA1 is associated with breast cancer.' },
        { id: 'p2', text: 'BRCA1 was not associated with breast cancer.' },
      ],
      CANDIDATES,
    );
    expect(both).toMatchObject({ decision: 'maybe', supportIds: ['p1:0-39', 'p2:0-44'] });
  });

  it('without linked entities, needs a sentence holding nearly all of the question’s words', () => {
    const q = { question: 'Do mitochondria play a role in programmed cell death of lace plant leaves?', propositions: [] };
    const stated = statedAnswer(q, [{ id: 'p', text: 'Mitochondria play a role in programmed cell death in lace plant leaves.' }]);
    const vague = statedAnswer(q, [{ id: 'p', text: 'Mitochondria are organelles found in leaves.' }]);
    const denied = statedAnswer(q, [{ id: 'p', text: 'Mitochondria do not play a role in programmed cell death of lace plant leaves.' }]);
    expect([stated.decision, vague.decision, denied.decision]).toEqual(['yes', 'maybe', 'no']);
  });
});
