import { describe, expect, it } from 'vitest';
import { toCytoscapeElements } from '@/components/graph/elements';
import { metaedgeVerb, neighbourhoodToGraph, sortNeighbours, type NeighbourItem } from '@/components/kg/neighbourhood-graph';

const focus = { id: 'Disease::DOID:2377', kind: 'Disease', name: 'multiple sclerosis' };

function out(id: number, metaedge: string, neighbor: { id: string; kind: string; name: string }): NeighbourItem {
  return { edge: { id, sourceId: focus.id, metaedge, targetId: neighbor.id }, neighbor, direction: 'out' };
}
function into(id: number, metaedge: string, neighbor: { id: string; kind: string; name: string }): NeighbourItem {
  return { edge: { id, sourceId: neighbor.id, metaedge, targetId: focus.id }, neighbor, direction: 'in' };
}

const IL6 = { id: 'Gene::3569', kind: 'Gene', name: 'IL6' };
const CD6 = { id: 'Gene::923', kind: 'Gene', name: 'CD6' };
const METHOTREXATE = { id: 'Compound::DB00563', kind: 'Compound', name: 'Methotrexate' };
const BRAIN = { id: 'Anatomy::UBERON:0000955', kind: 'Anatomy', name: 'brain' };

describe('neighbourhoodToGraph', () => {
  const items = [out(1, 'DaG', IL6), into(2, 'CtD', METHOTREXATE), out(3, 'DaG', CD6), out(4, 'DlA', BRAIN), out(5, 'DuG', IL6)];
  const descriptions = { DaG: 'Disease – associates – Gene', CtD: 'Compound – treats – Disease', DuG: 'Disease – upregulates – Gene' };

  it('puts the focus first, in the centre, with the focus class', () => {
    const graph = neighbourhoodToGraph(focus, items);
    expect(graph.nodes[0]).toEqual({ id: focus.id, label: focus.name, title: focus.name, kind: 'Disease', rank: 2, classes: ['focus'] });
  });

  it('lists each neighbour once, sorted by kind then name', () => {
    const graph = neighbourhoodToGraph(focus, items);
    expect(graph.nodes.slice(1).map((n) => n.label)).toEqual(['brain', 'Methotrexate', 'CD6', 'IL6']);
    expect(graph.nodes.slice(1).every((n) => n.rank === 1)).toBe(true);
  });

  it('keeps one edge per KG edge, in the KG orientation, labelled with the verb', () => {
    const graph = neighbourhoodToGraph(focus, items, { metaedgeDescriptions: descriptions });
    expect(graph.edges).toHaveLength(5);
    const treats = graph.edges.find((e) => e.id === 'edge:2');
    expect(treats).toMatchObject({ source: METHOTREXATE.id, target: focus.id, label: 'treats', channel: 'kg' });
    const toIl6 = graph.edges.filter((e) => e.target === IL6.id).map((e) => e.label);
    expect(toIl6.sort()).toEqual(['associates', 'upregulates']);
    // no description: the abbreviation
    expect(graph.edges.find((e) => e.id === 'edge:4')?.label).toBe('DlA');
  });

  it('accepts descriptions as a Map and highlights one neighbour', () => {
    const graph = neighbourhoodToGraph(focus, items, { metaedgeDescriptions: new Map(Object.entries(descriptions)), highlightId: CD6.id });
    expect(graph.nodes.find((n) => n.id === CD6.id)?.classes).toEqual(['highlighted']);
    expect(graph.nodes.find((n) => n.id === IL6.id)?.classes).toEqual([]);
    expect(graph.edges.find((e) => e.id === 'edge:1')?.label).toBe('associates');
  });

  it('splits a large neighbourhood over two rings', () => {
    const many = Array.from({ length: 30 }, (_, i) => out(100 + i, 'DaG', { id: `Gene::${i}`, kind: 'Gene', name: `G${String(i).padStart(2, '0')}` }));
    const graph = neighbourhoodToGraph(focus, many);
    const ranks = graph.nodes.slice(1).map((n) => n.rank);
    expect(ranks.filter((r) => r === 1)).toHaveLength(15);
    expect(ranks.filter((r) => r === 0)).toHaveLength(15);
    expect(neighbourhoodToGraph(focus, many, { singleRingMax: 30 }).nodes.slice(1).every((n) => n.rank === 1)).toBe(true);
  });

  it('gives only the focus for an empty neighbourhood', () => {
    const graph = neighbourhoodToGraph(focus, []);
    expect(graph.nodes).toHaveLength(1);
    expect(graph.edges).toEqual([]);
  });

  it('ignores an edge that loops back to the focus as a neighbour node', () => {
    const self = out(9, 'DrD', { ...focus });
    const graph = neighbourhoodToGraph(focus, [self]);
    expect(graph.nodes).toHaveLength(1);
    expect(graph.edges).toHaveLength(1);
  });

  it('converts to Cytoscape elements without dangling edges', () => {
    const els = toCytoscapeElements(neighbourhoodToGraph(focus, items));
    const ids = new Set(els.filter((e) => e.group === 'nodes').map((e) => e.data.id));
    for (const e of els) if (e.group === 'edges') expect(ids.has(e.data.source) && ids.has(e.data.target)).toBe(true);
    expect(els.filter((e) => e.group === 'nodes')).toHaveLength(5);
    expect(els.filter((e) => e.group === 'edges')).toHaveLength(5);
  });
});

describe('metaedgeVerb', () => {
  it('takes the verb from a description', () => {
    expect(metaedgeVerb('DaG', 'Disease – associates – Gene')).toBe('associates');
    expect(metaedgeVerb('DaG', 'Disease - associates - Gene')).toBe('associates');
    expect(metaedgeVerb('Gr>G', 'Gene > regulates > Gene')).toBe('regulates');
  });
  it('falls back to the abbreviation', () => {
    expect(metaedgeVerb('CtD')).toBe('CtD');
    expect(metaedgeVerb('CtD', '')).toBe('CtD');
    expect(metaedgeVerb('CtD', 'treats')).toBe('CtD');
  });
});

describe('sortNeighbours', () => {
  it('does not mutate its input', () => {
    const items = [out(1, 'DaG', IL6), out(2, 'DaG', CD6)];
    const copy = [...items];
    sortNeighbours(items);
    expect(items).toEqual(copy);
  });
});
