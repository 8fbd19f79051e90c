import { describe, expect, it } from 'vitest';
import { toCytoscapeElements } from '@/components/graph/elements';
import { VIEW_CLASSES } from '@/components/graph/model';
import { expandedPositions } from '@/components/kg/expand-layout';
import { matchReason } from '@/components/kg/match-reason';
import { expandNeighbourhood, metaedgeVerb, neighbourhoodToGraph, sortNeighbours, type NeighbourItem } from '@/components/kg/neighbourhood-graph';

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
    expect(
      neighbourhoodToGraph(focus, many, { singleRingMax: 30 })
        .nodes.slice(1)
        .every((n) => n.rank === 1),
    ).toBe(true);
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

describe('expandNeighbourhood (expand in place)', () => {
  const items = [out(1, 'DaG', IL6), into(2, 'CtD', METHOTREXATE), out(3, 'DaG', CD6)];
  const TNF = { id: 'Gene::7124', kind: 'Gene', name: 'TNF' };
  const ASTHMA = { id: 'Disease::DOID:2841', kind: 'Disease', name: 'asthma' };
  const fromIl6 = (id: number, metaedge: string, neighbor: { id: string; kind: string; name: string }): NeighbourItem => ({
    edge: { id, sourceId: IL6.id, metaedge, targetId: neighbor.id },
    neighbor,
    direction: 'out',
  });
  // IL6's neighbours: two new nodes, and CD6 and the focus, which are drawn already.
  const il6 = {
    id: IL6.id,
    items: [
      fromIl6(10, 'GiG', TNF),
      fromIl6(11, 'GiG', CD6),
      fromIl6(12, 'DaG', ASTHMA),
      { ...into(1, 'DaG', focus), edge: { id: 1, sourceId: focus.id, metaedge: 'DaG', targetId: IL6.id } },
    ],
  };

  it('adds the new neighbours of an expanded node once, with edges to nodes already drawn, and keeps the base graph as it was', () => {
    const base = neighbourhoodToGraph(focus, items);
    const { model, parentOf, added } = expandNeighbourhood(focus, items, [il6], { selectedId: IL6.id });
    expect(model.nodes.slice(0, base.nodes.length).map((n) => n.id)).toEqual(base.nodes.map((n) => n.id));
    expect(model.nodes.slice(base.nodes.length).map((n) => n.label)).toEqual(['asthma', 'TNF']);
    expect([...parentOf]).toEqual([
      [ASTHMA.id, IL6.id],
      [TNF.id, IL6.id],
    ]);
    // Edge 1 (focus–IL6) was drawn already; 10, 11 and 12 are new, 11 joining two nodes already drawn.
    expect(added).toEqual({ nodes: 2, edges: 3 });
    expect(model.edges.filter((e) => e.id === 'edge:1')).toHaveLength(1);
    expect(model.edges.find((e) => e.id === 'edge:11')).toMatchObject({ source: IL6.id, target: CD6.id });
    expect(model.nodes.find((n) => n.id === IL6.id)!.classes).toEqual([VIEW_CLASSES.expanded, 'highlighted']);
  });

  it('ignores an expansion whose node is no longer drawn (filtered away)', () => {
    const { model, added } = expandNeighbourhood(focus, [into(2, 'CtD', METHOTREXATE)], [il6]);
    expect(added).toEqual({ nodes: 0, edges: 0 });
    expect(model.nodes.map((n) => n.id)).toEqual([focus.id, METHOTREXATE.id]);
  });

  it('keeps the focus and its neighbours where the radial layout puts them, and fans the new nodes out beside their parent', () => {
    const geometry = { width: 900, height: 520 };
    const { model, parentOf } = expandNeighbourhood(focus, items, [il6]);
    const before = expandedPositions(neighbourhoodToGraph(focus, items), new Map(), focus.id, geometry);
    const after = expandedPositions(model, parentOf, focus.id, geometry);
    for (const [id, p] of before) expect(after.get(id)).toEqual(p);
    const parent = after.get(IL6.id)!;
    const outer = (p: { x: number; y: number }) => Math.hypot(p.x / (geometry.width / 2 - 60), p.y / (geometry.height / 2 - 36));
    for (const child of [TNF.id, ASTHMA.id]) {
      const p = after.get(child)!;
      // Beyond the outer ring, so never on top of the neighbours drawn already, and on the parent's side.
      expect(outer(p)).toBeGreaterThan(1);
      expect(Math.hypot(p.x - parent.x, p.y - parent.y)).toBeLessThan(Math.hypot(p.x + parent.x, p.y + parent.y));
    }
    expect(after.get(TNF.id)).not.toEqual(after.get(ASTHMA.id));
  });
});

describe('matchReason', () => {
  it('says which field matched and how, naming an alias and its source', () => {
    expect(matchReason({ field: 'name', how: 'exact', text: 'TP53', source: null })).toBe('name');
    expect(matchReason({ field: 'name', how: 'similar', text: 'TP53', source: null })).toBe('similar name');
    expect(matchReason({ field: 'name', how: 'prefix', text: 'TP53', source: null })).toBe('start of name');
    expect(matchReason({ field: 'symbol', how: 'prefix', text: 'IL6', source: 'ncbi-symbol' })).toBe('start of symbol IL6');
    expect(matchReason({ field: 'alias', how: 'exact', text: 'p53', source: 'ncbi-synonym' })).toBe('alias “p53” (NCBI synonym)');
    expect(matchReason({ field: 'id', how: 'exact', text: 'Gene::7157', source: null })).toBe('id Gene::7157');
  });
});
