import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { passesAsTable } from '@/lib/base/zod-table';
import { leadTriplesOf } from '@/lib/trace/evidence-data';
import { TripleDataSchema } from '@/lib/trace/types';

const triple = (edgeId: number, fields: Record<string, unknown> = {}) => ({
  edgeId,
  sourceId: 'Disease::DOID:2377',
  sourceName: 'multiple sclerosis',
  sourceKind: 'Disease',
  metaedge: 'DaG',
  verb: 'associates',
  targetId: `Gene::${edgeId}`,
  targetName: `G${edgeId}`,
  targetKind: 'Gene',
  ...fields,
});

describe('checking objects as one table', () => {
  it('passes exactly the lists the object schema passes item by item', () => {
    const byItem = z.array(TripleDataSchema);
    const lists: unknown[][] = [
      [],
      [triple(1), triple(2), triple(3)],
      [triple(1), triple(2, { extra: 'kept' })],
      [triple(1), triple(2, { edgeId: 2.5 })],
      [triple(1), triple(2, { targetName: undefined })],
      [triple(1), triple(2, { verb: 7 })],
      [triple(1), 'not an object'],
      [triple(1), [triple(2)]],
      [null],
    ];
    for (const list of lists) expect(passesAsTable(TripleDataSchema, list)).toBe(byItem.safeParse(list).success);
  });

  it("reads a neighbourhood's triples as they are; a record of another shape throws, naming it, as one by one", () => {
    const records = [1, 2, 3].map((n) => ({ kind: 'triple', ref: `edge:${n}`, data: triple(n) }));
    const triples = leadTriplesOf(records);
    expect(triples).toEqual(records.map((r) => r.data));
    expect(triples[0]).toBe(records[0].data);
    const path = { kind: 'path', ref: 'path:1', data: { nodes: [], hops: [triple(9)], metapath: 'DaG' } };
    expect(leadTriplesOf([...records, path]).map((t) => t.edgeId)).toEqual([1, 2, 3, 9]);
    expect(() => leadTriplesOf([...records, { kind: 'triple', ref: 'edge:4', data: triple(4, { edgeId: 'four' }) }])).toThrow(/edge:4/);
  });
});
