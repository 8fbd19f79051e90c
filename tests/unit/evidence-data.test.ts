import { describe, expect, it } from 'vitest';
import { toLine } from '@/lib/methods/baselines/evidence';
import { toItem } from '@/lib/methods/eigen1/stages/records';
import type { EvidenceRecord } from '@/lib/trace/types';

const triple = {
  edgeId: 7,
  sourceId: 'Compound::DB00331',
  sourceName: 'Metformin',
  sourceKind: 'Compound',
  metaedge: 'CtD',
  verb: 'treats',
  targetId: 'Disease::DOID:9352',
  targetName: 'type 2 diabetes mellitus',
  targetKind: 'Disease',
};
const record = (kind: EvidenceRecord['kind'], data: unknown): EvidenceRecord => ({
  id: 'r1',
  ordinal: 1,
  stepId: null,
  selected: true,
  channel: 'kg',
  kind,
  ref: `edge:${kind}`,
  text: 't',
  data,
});

describe("evidence data is parsed through its kind's schema, never cast", () => {
  it('reads a triple and a path as the triples they state', () => {
    expect(toItem(record('triple', triple)).triples).toEqual([triple]);
    const path = {
      nodes: [
        { id: triple.sourceId, name: 'Metformin', kind: 'Compound' },
        { id: triple.targetId, name: 'type 2 diabetes mellitus', kind: 'Disease' },
      ],
      hops: [triple],
      metapath: 'CtD',
    };
    expect(toLine(record('path', path)).triples).toEqual([triple]);
    expect(toItem({ ...record('passage', undefined), channel: 'doc' }).triples).toEqual([]);
  });

  it('refuses a KG record whose data has another shape, naming the record', () => {
    const { targetId: _dropped, ...partial } = triple;
    expect(() => toItem(record('triple', partial))).toThrow(/evidence edge:triple \(triple\) has data of another shape/);
    expect(() => toLine(record('path', { hops: 'none' }))).toThrow(/evidence edge:path \(path\)/);
  });
});
