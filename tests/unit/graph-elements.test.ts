import { describe, expect, it } from 'vitest';
import { kindsInModel, toCytoscapeElements, truncateLabel } from '@/components/graph/elements';
import type { CyEdgeElement, CyNodeElement, GraphModel } from '@/components/graph/model';

const nodesOf = (els: ReturnType<typeof toCytoscapeElements>) => els.filter((e): e is CyNodeElement => e.group === 'nodes');
const edgesOf = (els: ReturnType<typeof toCytoscapeElements>) => els.filter((e): e is CyEdgeElement => e.group === 'edges');

describe('toCytoscapeElements', () => {
  const model: GraphModel = {
    nodes: [
      { id: 'Disease::DOID:2377', label: 'multiple sclerosis', kind: 'Disease', classes: ['focus'], rank: 2 },
      { id: 'Gene::3569', label: 'IL6', kind: 'Gene', classes: ['answer', 'answer'] },
      { id: 'Compound::DB00331', label: 'Metformin', kind: 'Compound' },
    ],
    edges: [
      { id: 'e1', source: 'Disease::DOID:2377', target: 'Gene::3569', label: 'associates', classes: ['selected'], channel: 'kg' },
      { id: 'e2', source: 'Compound::DB00331', target: 'Disease::DOID:2377', label: 'treats', directed: false },
    ],
  };

  it('puts nodes before edges and keeps the data flat', () => {
    const els = toCytoscapeElements(model);
    expect(els.map((e) => e.group)).toEqual(['nodes', 'nodes', 'nodes', 'edges', 'edges']);
    expect(els[0]).toEqual({
      group: 'nodes',
      data: { id: 'Disease::DOID:2377', label: 'multiple sclerosis', kind: 'Disease', title: 'multiple sclerosis', rank: 2, order: 0 },
      classes: 'focus',
    });
    for (const el of els) {
      for (const value of Object.values(el.data)) expect(typeof value === 'object').toBe(false);
    }
  });

  it('joins classes, removing duplicates, and defaults rank and channel', () => {
    const els = toCytoscapeElements(model);
    const [, gene, compound] = nodesOf(els);
    expect(gene!.classes).toBe('answer');
    expect(gene!.data.rank).toBe(0);
    expect(compound!.classes).toBe('');
    const [e1, e2] = edgesOf(els);
    expect(e1!.data).toEqual({ id: 'e1', source: 'Disease::DOID:2377', target: 'Gene::3569', label: 'associates', channel: 'kg' });
    expect(e2!.data.channel).toBe('');
  });

  it('marks undirected edges and labels every edge of a small graph', () => {
    const [e1, e2] = edgesOf(toCytoscapeElements(model));
    expect(e1!.classes.split(' ').sort()).toEqual(['labelled', 'selected']);
    expect(e2!.classes.split(' ').sort()).toEqual(['labelled', 'undirected']);
  });

  it('labels edges on hover only past the threshold', () => {
    const els = toCytoscapeElements(model, { alwaysLabelEdgesUpTo: 1 });
    expect(edgesOf(els).every((e) => !e.classes.includes('labelled'))).toBe(true);
    // A small graph whose edges fan out of one node: labels would pile up around the hub.
    const fan = {
      nodes: [{ id: 'hub', label: 'Hub', kind: 'Disease' }, ...Array.from({ length: 8 }, (_, i) => ({ id: `g${i}`, label: `G${i}`, kind: 'Gene' }))],
      edges: Array.from({ length: 8 }, (_, i) => ({ id: `e${i}`, source: 'hub', target: `g${i}`, label: 'associates' })),
    };
    expect(edgesOf(toCytoscapeElements(fan, { alwaysLabelEdgesUpTo: 16 })).some((e) => e.classes.includes('labelled'))).toBe(false);
    expect(
      edgesOf(toCytoscapeElements({ ...fan, edges: fan.edges.slice(0, 4) }, { alwaysLabelEdgesUpTo: 16 })).every((e) => e.classes.includes('labelled')),
    ).toBe(true);
  });

  it('drops duplicate ids and edges with a missing endpoint', () => {
    const els = toCytoscapeElements({
      nodes: [
        { id: 'a', label: 'A', kind: 'Gene' },
        { id: 'a', label: 'A again', kind: 'Disease' },
        { id: 'b', label: 'B', kind: 'Gene' },
      ],
      edges: [
        { id: 'ab', source: 'a', target: 'b' },
        { id: 'ab', source: 'b', target: 'a' },
        { id: 'ax', source: 'a', target: 'missing' },
        { id: 'b', source: 'a', target: 'b' },
      ],
    });
    expect(nodesOf(els).map((n) => [n.data.id, n.data.label])).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
    expect(edgesOf(els).map((e) => [e.data.id, e.data.source])).toEqual([['ab', 'a']]);
  });

  it('truncates long labels and keeps the full text as title', () => {
    const long = 'Major histocompatibility complex, class II, DR beta 1';
    const [node] = nodesOf(toCytoscapeElements({ nodes: [{ id: 'g', label: long, kind: 'Gene' }], edges: [] }, { maxLabelLength: 20 }));
    expect(node!.data.label).toHaveLength(20);
    expect(node!.data.label.endsWith('…')).toBe(true);
    expect(node!.data.title).toBe(long);
  });

  it('returns an empty list for an empty model', () => {
    expect(toCytoscapeElements({ nodes: [], edges: [] })).toEqual([]);
  });
});

describe('truncateLabel', () => {
  it('collapses whitespace and cuts with an ellipsis', () => {
    expect(truncateLabel('  a   b  ', 10)).toBe('a b');
    expect(truncateLabel('abcdefghij', 5)).toBe('abcd…');
    expect(truncateLabel('abc', 3)).toBe('abc');
  });
});

describe('kindsInModel', () => {
  it('lists kinds once in first-seen order', () => {
    expect(
      kindsInModel({
        nodes: [
          { id: '1', label: '', kind: 'Disease' },
          { id: '2', label: '', kind: 'Gene' },
          { id: '3', label: '', kind: 'Disease' },
        ],
        edges: [],
      }),
    ).toEqual(['Disease', 'Gene']);
  });
});
