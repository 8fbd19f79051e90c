import { describe, expect, it } from 'vitest';
import { normaliseName } from '../../lib/kg/normalise';
import { tokenize } from '../../lib/kg/query/tokens';
import { formatMetapath, parseMetapath } from '../../lib/kg/query/metapath-syntax';
import { sampleIndexes, seededRandom } from '../../lib/kg/query/prng';
import { byDegreeDesc, interleaveGroups } from '../../lib/kg/query/order';

describe('tokenize', () => {
  it('gives spans whose joined token norms equal normaliseName of the span', () => {
    const text = 'Crohn’s disease, type-2 diabetes & TNF-α (HIF1α) in naïve T-cells';
    const tokens = tokenize(text);
    for (let i = 0; i < tokens.length; i++) {
      for (let j = i; j < tokens.length; j++) {
        const joined = tokens
          .slice(i, j + 1)
          .map((t) => t.norm)
          .join(' ');
        expect(joined).toBe(normaliseName(text.slice(tokens[i].start, tokens[j].end)));
      }
    }
    expect(tokens.map((t) => t.norm)).toEqual(['crohn', 's', 'disease', 'type', '2', 'diabetes', 'tnf', 'alpha', 'hif1 alpha', 'in', 'naive', 't', 'cells']);
  });
});

describe('metapath syntax', () => {
  it('parses hops with optional directions and formats walked hops back', () => {
    expect(parseMetapath('CtD|Gr>G:out|DaG:in')).toEqual([
      { metaedge: 'CtD', direction: 'both' },
      { metaedge: 'Gr>G', direction: 'out' },
      { metaedge: 'DaG', direction: 'in' },
    ]);
    expect(parseMetapath(['CtD', { metaedge: 'DaG', direction: 'out' }])).toEqual([
      { metaedge: 'CtD', direction: 'both' },
      { metaedge: 'DaG', direction: 'out' },
    ]);
    const walked = formatMetapath([
      { metaedge: 'CtD', direction: 'in', directed: false },
      { metaedge: 'Gr>G', direction: 'in', directed: true },
    ]);
    expect(walked).toBe('CtD|Gr>G:in');
    expect(parseMetapath(walked).map((h) => h.metaedge)).toEqual(['CtD', 'Gr>G']);
  });
});

describe('seeded sampling', () => {
  it('repeats for a seed and draws distinct indexes', () => {
    const a = sampleIndexes(1000, 50, seededRandom(7));
    expect(sampleIndexes(1000, 50, seededRandom(7))).toEqual(a);
    expect(sampleIndexes(1000, 50, seededRandom(8))).not.toEqual(a);
    expect(new Set(a).size).toBe(50);
    expect(a.every((i) => i >= 0 && i < 1000)).toBe(true);
    expect(sampleIndexes(5, 10, seededRandom('x')).sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('byDegreeDesc', () => {
  it('sorts by degree, highest first, keeping the given order among equals', () => {
    const degree = [5, 9, 5, 1, 9];
    expect(Array.from(byDegreeDesc(Int32Array.from([0, 1, 2, 3, 4]), (i) => degree[i]))).toEqual([1, 4, 0, 2, 3]);
  });
});

describe('interleaveGroups', () => {
  it('takes turns across groups, largest first, keeping each group in order', () => {
    // Items 0–5 are one big relation (already best-connected first), 6–7 a second, 8 a third.
    const group = [0, 0, 0, 0, 0, 0, 1, 1, 2];
    const out = Array.from(interleaveGroups(Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]), (i) => group[i]));
    expect(out).toEqual([0, 6, 8, 1, 7, 2, 3, 4, 5]);
    // Any prefix is as diverse as it can be: the first three items cover all three groups.
    expect(new Set(out.slice(0, 3).map((i) => group[i])).size).toBe(3);
  });

  it('keeps every item exactly once', () => {
    const items = Int32Array.from({ length: 50 }, (_, i) => 49 - i);
    const out = interleaveGroups(items, (i) => i % 7);
    expect([...out].sort((a, b) => a - b)).toEqual([...items].sort((a, b) => a - b));
  });
});
