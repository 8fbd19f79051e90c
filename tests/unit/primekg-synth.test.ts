import { describe, expect, it } from 'vitest';
import { PRIMEKG_COLUMNS } from '@/lib/kg/import/primekg';
import { PRIMEKG_NODE_COUNTS, PRIMEKG_RELATIONS, syntheticPrimeKgRows } from '@/lib/kg/import/primekg-synth';
import { splitRow } from '@/lib/kg/import/delimited';

const rowsOf = (rows: number, seed: number) => [...syntheticPrimeKgRows({ rows, seed })];

describe('synthetic PrimeKG', () => {
  it('is seeded: the same seed and size give the same rows, another seed other rows', () => {
    const a = rowsOf(20_000, 1);
    expect(rowsOf(20_000, 1)).toEqual(a);
    expect(rowsOf(20_000, 2)).not.toEqual(a);
  });

  it("has PrimeKG's columns, types, relations, both directions of each edge and heavy-tailed degrees", () => {
    const lines = rowsOf(40_000, 7).map((l) => splitRow(l.trimEnd(), ',') as string[]);
    expect(lines.every((cells) => cells.length === PRIMEKG_COLUMNS.length)).toBe(true);
    expect(lines.length).toBeGreaterThan(38_000);
    expect(lines.length).toBeLessThan(42_000);
    const col = (name: (typeof PRIMEKG_COLUMNS)[number]) => PRIMEKG_COLUMNS.indexOf(name);
    expect(new Set(lines.map((c) => c[col('relation')]))).toEqual(new Set(PRIMEKG_RELATIONS.map((r) => r[0])));
    expect(new Set(lines.flatMap((c) => [c[col('x_type')], c[col('y_type')]]))).toEqual(new Set(Object.keys(PRIMEKG_NODE_COUNTS)));
    // Row 2k+1 is row 2k reversed.
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i + 1].slice(2, 7)).toEqual(lines[i].slice(7, 12));
      expect(lines[i + 1].slice(7, 12)).toEqual(lines[i].slice(2, 7));
    }
    // Relations keep their published proportions: expression edges outnumber drug–drug, which outnumber PPIs.
    const per = (r: string) => lines.filter((c) => c[col('relation')] === r).length;
    expect(per('anatomy_protein_present')).toBeGreaterThan(per('drug_drug'));
    expect(per('drug_drug')).toBeGreaterThan(per('protein_protein'));
    // Heavy tail: the best-connected node has many times the median degree.
    const degree = new Map<string, number>();
    for (const c of lines) degree.set(c[col('x_index')], (degree.get(c[col('x_index')]) ?? 0) + 1);
    const sorted = [...degree.values()].sort((a, b) => a - b);
    expect(sorted.at(-1)!).toBeGreaterThan(20 * sorted[Math.floor(sorted.length / 2)]);
  });
});
