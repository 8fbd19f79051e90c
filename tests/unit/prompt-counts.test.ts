import { describe, expect, it } from 'vitest';
import { shownPairs } from '@/lib/methods/baselines/stages/neighbourhood';
import type { EvidenceRecord } from '@/lib/trace/types';
import { askedPair } from '@/lib/methods/regram/stages/candidates';
import { EARLIER_HOP, type LinkedNode } from '@/lib/methods/regram/stages/link';
import { checkTemplate, type CheckInput, type Xr2Frame } from '@/lib/methods/xr2/templates';

const node = (name: string, kind: string, method: LinkedNode['method']): LinkedNode => ({
  nodeId: `${kind}::${name}`,
  name,
  kind,
  mention: method === EARLIER_HOP ? null : name,
  method,
  score: null,
  from: 'test',
});

describe("a pair's no-edge check belongs only to a pair the hop asks about", () => {
  it('keeps a candidate of the earlier hop against the anchor the hop names', () => {
    expect(askedPair(node('colon cancer', 'Disease', 'exact'), node('Pelvic Pain', 'Symptom', EARLIER_HOP))).toBe(true);
  });

  it('drops two candidates of the earlier hop, whatever their kinds', () => {
    expect(askedPair(node('Metformin', 'Compound', EARLIER_HOP), node('Drospirenone', 'Compound', EARLIER_HOP))).toBe(false);
  });

  it('drops two nodes of kinds no relation of the graph joins', () => {
    expect(askedPair(node('Abdominal Pain', 'Symptom', 'exact'), node('Fever', 'Symptom', 'exact'))).toBe(false);
    expect(askedPair(node('cartilage', 'Anatomy', 'exact'), node('frontal sinus', 'Anatomy', 'exact'))).toBe(false);
  });

  it('keeps two named nodes of one kind when a relation joins that kind to itself (drug resembles drug)', () => {
    expect(askedPair(node('Metformin', 'Compound', 'exact'), node('Phenformin', 'Compound', 'exact'))).toBe(true);
  });
});

describe("the self-check's counts count what it lists", () => {
  const input = (newMemory: number): CheckInput =>
    ({
      frame: { question: 'Which diseases does Methoxsalen treat?', options: null, entities: [], documents: [], optionTests: [] } as unknown as Xr2Frame,
      t: 1,
      tMax: 2,
      answer: { answer: ['psoriasis'], optionKey: null, count: null, abstain: false, rationale: 'K1', claims: [], evidenceIds: ['K1'] },
      evidence: [],
      memory: [],
      unexamined: 0,
      completeness: false,
      kgShown: 'showing 1 of 1 ranked candidate triples',
      kgTotals: [],
      newEvidence: 4,
      newMemory,
    }) as unknown as CheckInput;

  it('counts new evidence and new memory apart', () => {
    expect(checkTemplate.render(input(5))).toContain('New this step: 4 evidence line(s) and 5 memory line(s).');
    expect(checkTemplate.render(input(0))).toContain('New this step: 4 evidence line(s).');
  });
});

describe("KG-RAG's pair lines: edges first, and checks only on pairs the question asks about", () => {
  const ref = (name: string, kind: string) => ({ id: `${kind}::${name}`, name, kind });
  const check = (a: ReturnType<typeof ref>, b: ReturnType<typeof ref>) =>
    ({ id: `c-${a.name}-${b.name}`, kind: 'check', data: { from: a, to: b, metaedges: null } }) as unknown as EvidenceRecord;
  const edge = { id: 'e1', kind: 'triple' } as unknown as EvidenceRecord;
  const hematologic = ref('hematologic cancer', 'Disease');
  const colitis = ref('ulcerative colitis', 'Disease');
  const metformin = ref('Metformin', 'Compound');

  it('lists a pair check after the edges, and drops one kind joined by no asked relation (aids on)', () => {
    const records = [check(hematologic, colitis), check(metformin, colitis), edge];
    expect(shownPairs(records, new Set(['DpS'])).map((r) => r.id)).toEqual(['e1', 'c-Metformin-ulcerative colitis']);
    expect(shownPairs(records, new Set(['DrD'])).map((r) => r.id)).toEqual(['e1', 'c-hematologic cancer-ulcerative colitis', 'c-Metformin-ulcerative colitis']);
  });

  it('keeps every check with the aids off, where no reading says what is asked', () => {
    expect(shownPairs([check(hematologic, colitis), edge], null).map((r) => r.id)).toEqual(['e1', 'c-hematologic cancer-ulcerative colitis']);
  });
});
