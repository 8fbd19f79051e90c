import { describe, expect, it } from 'vitest';
import { sameJson } from '@/lib/base/json';

/** Values whose JSON texts agree or differ in each of the ways JSON writes them. */
const VALUES: unknown[] = [
  null,
  undefined,
  0,
  -0,
  1,
  1.5,
  NaN,
  Infinity,
  '',
  '1',
  'null',
  true,
  false,
  [],
  [null],
  [undefined],
  [1, 2],
  [2, 1],
  [1, [2, 3]],
  {},
  { a: undefined },
  { a: 1 },
  { a: 1, b: undefined },
  { b: undefined, a: 1 },
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { a: NaN },
  { a: null },
  { a: { b: [1, { c: 'x' }] } },
  { a: { b: [1, { c: 'y' }] } },
  { a: { b: [1, { c: 'x', d: undefined }] } },
  { 2: 'x', 1: 'y' },
  { 1: 'y', 2: 'x' },
  new Date(0),
  '1970-01-01T00:00:00.000Z',
  { a: () => 1 },
  [() => 1],
  Object.assign(Object.create(null), { a: 1 }),
];

describe('sameJson', () => {
  it('agrees with comparing JSON.stringify texts for every pair', () => {
    for (const a of VALUES) for (const b of VALUES) expect([a, b, sameJson(a, b)]).toEqual([a, b, JSON.stringify(a ?? null) === JSON.stringify(b ?? null)]);
  });

  it('compares separate copies of the same record data field by field', () => {
    const data = () => ({ edgeId: 7, sourceId: 'Gene::1', sourceName: 'IL2RA', scores: [0.5, null], nested: { k: 'v' } });
    expect(sameJson(data(), data())).toBe(true);
    expect(sameJson(data(), { ...data(), edgeId: 8 })).toBe(false);
    expect(sameJson(data(), { ...data(), nested: { k: 'w' } })).toBe(false);
  });
});
