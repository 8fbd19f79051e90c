import { describe, expect, it } from 'vitest';
import { distinctBy, onePerNode } from '../../lib/base/distinct';

describe('one item per key', () => {
  it('keeps the order keys first appear in, with the later item of a repeated key in that place', () => {
    const items = [
      { nodeId: 'Gene::1', name: 'A' },
      { nodeId: 'Gene::2', name: 'B' },
      { nodeId: 'Gene::1', name: 'A again' },
    ];
    expect(onePerNode(items)).toEqual([
      { nodeId: 'Gene::1', name: 'A again' },
      { nodeId: 'Gene::2', name: 'B' },
    ]);
  });

  it('takes any key, numbers included, and any iterable', () => {
    const edges = new Set([{ edgeId: 3 }, { edgeId: 1 }, { edgeId: 3 }]);
    expect(distinctBy(edges, (e) => e.edgeId).map((e) => e.edgeId)).toEqual([3, 1]);
    expect(distinctBy([], (e: { id: string }) => e.id)).toEqual([]);
  });
});
