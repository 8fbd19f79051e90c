import { describe, expect, it } from 'vitest';
import { AGGREGATE_PREFIX, aggregate, answerSubgraph, citedEdgeIds, defaultScope } from '@/components/runs/graph-focus';
import { wrapTallRanks } from '@/components/graph/layouts/dagre';
import type { GraphEdge, GraphModel, GraphNode } from '@/components/graph/model';
import { explainAnswer, type ExplainInput } from '@/lib/runs/answer-explanation';

const node = (id: string, kind: string, classes: string[] = []): GraphNode => ({ id, label: id, kind, classes });
const edge = (id: string, source: string, target: string, classes: string[] = ['candidate']): GraphEdge => ({ id, source, target, classes });

/** Two seeds, 4 genes chosen by the method, 150 candidate genes and 30 candidate anatomy nodes around the first seed. */
function bigRun(): GraphModel {
  const nodes = [node('MS', 'Disease', ['seed']), node('CD', 'Disease', ['seed'])];
  const edges: GraphEdge[] = [];
  for (const g of ['ALB', 'ICAM1', 'ITGA4', 'STAT3']) {
    nodes.push(node(g, 'Gene', g === 'ALB' ? ['answer'] : []));
    edges.push(edge(`kg:MS-${g}`, 'MS', g, ['selected']), edge(`kg:CD-${g}`, 'CD', g, ['selected']));
  }
  for (let i = 0; i < 150; i++) {
    nodes.push(node(`G${i}`, 'Gene'));
    edges.push(edge(`kg:MS-G${i}`, 'MS', `G${i}`));
  }
  for (let i = 0; i < 30; i++) {
    nodes.push(node(`A${i}`, 'Anatomy'));
    edges.push(edge(`kg:A${i}-CD`, `A${i}`, 'CD'));
  }
  return { nodes, edges };
}

describe('run graph focus', () => {
  it('folds a large graph into expandable groups per anchor and kind, keeping seeds, answers and chosen edges', () => {
    const model = bigRun();
    const focused = aggregate(model);
    expect(focused.model.nodes.length).toBeLessThanOrEqual(12);
    expect(focused.folded).toBe(180);
    const genes = focused.groups.find((g) => g.anchor === 'MS' && g.kind === 'Gene')!;
    expect(genes.members).toHaveLength(150);
    const geneNode = focused.model.nodes.find((n) => n.id === genes.id)!;
    expect(geneNode.label).toBe('+150 more genes');
    expect(focused.model.nodes.find((n) => n.id.startsWith(AGGREGATE_PREFIX) && n.kind === 'Anatomy')?.label).toBe('+30 more anatomies');
    for (const id of ['MS', 'CD', 'ALB', 'ICAM1', 'ITGA4', 'STAT3']) expect(focused.model.nodes.some((n) => n.id === id)).toBe(true);
    // One edge per group and anchor, labelled with the folded count; every edge has both ends drawn.
    const ids = new Set(focused.model.nodes.map((n) => n.id));
    expect(focused.model.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
    expect(focused.model.edges.find((e) => e.target === genes.id)?.label).toBe('150 relations');

    const opened = aggregate(model, { expanded: new Set([genes.id]) });
    expect(opened.model.nodes.some((n) => n.id === 'G17')).toBe(true);
    expect(opened.model.nodes.some((n) => n.id === genes.id)).toBe(false);
    expect(opened.folded).toBe(30);
  });

  it('leaves a graph within the budget as it is', () => {
    const small: GraphModel = { nodes: [node('a', 'Gene', ['seed']), node('b', 'Gene')], edges: [edge('e', 'a', 'b')] };
    expect(aggregate(small)).toEqual({ model: small, groups: [], folded: 0 });
  });

  it('opens on the answer subgraph when the answer cites graph evidence, else on the whole run', () => {
    const model = bigRun();
    const byElement = new Map([
      ['kg:MS-ALB', ['ev1']],
      ['kg:CD-ALB', ['ev2']],
      ['kg:MS-G3', ['ev3']],
    ]);
    const cited = citedEdgeIds(model, byElement, ['ev1', 'ev2']);
    expect([...cited].sort()).toEqual(['kg:CD-ALB', 'kg:MS-ALB']);
    expect(defaultScope(cited)).toBe('answer');
    expect(defaultScope(new Set())).toBe('all');
    const sub = answerSubgraph(model, cited);
    expect(sub.nodes.map((n) => n.id).sort()).toEqual(['ALB', 'CD', 'MS']);
    expect(sub.edges).toHaveLength(2);
  });
});

describe('layered layout', () => {
  it('wraps a rank of 25 nodes into three columns and moves the ranks to its right over', () => {
    const nodes = [
      { id: 'seed', x: 0, y: 400 },
      ...Array.from({ length: 25 }, (_, i) => ({ id: `g${i}`, x: 200, y: i * 34 })),
      { id: 'after', x: 400, y: 400 },
    ];
    const out = wrapTallRanks(nodes, 10);
    const columns = new Set(Array.from({ length: 25 }, (_, i) => out.get(`g${i}`)!.x));
    expect(columns.size).toBe(3);
    const ys = Array.from({ length: 25 }, (_, i) => out.get(`g${i}`)!.y);
    expect(Math.max(...ys) - Math.min(...ys)).toBeLessThanOrEqual(9 * 36);
    // The anchor faces the middle of the wrapped rank.
    expect(out.get('seed')!.x).toBe(0);
    expect(out.get('seed')!.y).toBeCloseTo((Math.min(...ys) + Math.max(...ys)) / 2);
    expect(out.get('after')!.x).toBeGreaterThan(Math.max(...columns));
    expect(wrapTallRanks(nodes.slice(0, 5), 10).get('g2')!.x).toBe(200);

    // Two anchors dagre put at the ends of the tall rank come within the wrapped rank's height, still facing its middle.
    const spread = wrapTallRanks([{ id: 'top', x: 0, y: 0 }, { id: 'bottom', x: 0, y: 24 * 34 }, ...nodes.slice(1)], 10);
    const [top, bottom] = [spread.get('top')!.y, spread.get('bottom')!.y];
    const genes = Array.from({ length: 25 }, (_, i) => spread.get(`g${i}`)!.y);
    expect(bottom - top).toBeGreaterThan(0);
    expect(bottom - top).toBeLessThanOrEqual(Math.max(...genes) - Math.min(...genes) + 0.001);
    expect((top + bottom) / 2).toBeCloseTo((Math.min(...genes) + Math.max(...genes)) / 2);
  });

  it('keeps the label-inclusive boxes of a wrapped rank apart, so labels never touch a neighbour', () => {
    const boxes = Array.from({ length: 25 }, (_, i) => ({ id: `g${i}`, x: 200, y: i * 34, w: i === 3 ? 150 : 40, h: 46 }));
    const out = wrapTallRanks(boxes, 10);
    const byColumn = new Map<number, number[]>();
    for (const b of boxes) {
      const p = out.get(b.id)!;
      byColumn.set(p.x, [...(byColumn.get(p.x) ?? []), p.y]);
    }
    const xs = [...byColumn.keys()].sort((p, q) => p - q);
    expect(xs).toHaveLength(3);
    // Neighbouring columns are further apart than the widest label box; rows further apart than the tallest.
    for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThan(150);
    for (const ys of byColumn.values()) {
      const sorted = ys.sort((p, q) => p - q);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThan(46);
    }

    // A short rank squeezed to the wrapped rank's height keeps its own boxes apart (anchors dagre spread far, two of them close).
    const anchors = [0, 2000, 2046, 2092].map((y, i) => ({ id: `a${i}`, x: 0, y, w: 80, h: 46 }));
    const squeezed = wrapTallRanks([...anchors, ...boxes], 10);
    const ays = anchors.map((a) => squeezed.get(a.id)!.y).sort((p, q) => p - q);
    for (let i = 1; i < ays.length; i++) expect(ays[i] - ays[i - 1]).toBeGreaterThan(46);
  });
});

const base: ExplainInput = {
  method: 'regram',
  status: 'succeeded',
  question: 'Which genes are associated with both multiple sclerosis and Crohn disease?',
  answerType: 'list',
  answer: { abstained: false, text: 'ALB; ICAM1', items: ['ALB', 'ICAM1'], claims: [{ evidenceIds: ['e1'] }, { evidenceIds: [] }] },
  switches: { doc: true, entity: true, kg: true, param: true, web: true, aids: false },
  params: { k: 15, hubCap: 30 },
  seeds: [{}],
  steps: [{ kind: 'channel.entity', status: 'succeeded', headline: 'linked multiple sclerosis' }],
  evidence: [
    { channel: 'kg', selected: true },
    { channel: 'kg', selected: false },
    { channel: 'kg', selected: false },
  ],
};

describe('answer explanation', () => {
  it('says a list may be partial, naming the cap and the candidates below it', () => {
    const why = explainAnswer(base);
    expect(why.abstention).toBeNull();
    expect(why.partial?.line).toBe('This list may be partial: k = 15 triples kept per hop region (MMR top-K); 2 KG candidates were ranked below the cut.');
    expect(why.partial?.caps.map((c) => c.param)).toEqual(['k', 'hubCap']);
    expect(why.claims).toEqual({ supported: 1, unsupported: 1 });

    // A count exactly at a retrieval cap: nothing past the cap was recorded, yet the count may be partial.
    const atCap = explainAnswer({
      ...base,
      method: 'bioweave',
      answerType: 'count',
      evidence: [],
      params: { k: 5, rawPathCap: 200 },
      answer: { ...base.answer!, text: '200', count: 200 },
    });
    expect(atCap.partial?.line).toBe(
      'This count may be partial: rawPathCap = 200 KG paths retrieved per round before ranking, and the answer has exactly that many items.',
    );
    expect(
      explainAnswer({
        ...base,
        method: 'bioweave',
        answerType: 'count',
        evidence: [],
        params: { k: 5, rawPathCap: 200 },
        answer: { ...base.answer!, text: '137', count: 137 },
      }).partial,
    ).toBeNull();
    // A method that records the caps it reached is read, not guessed from the answer's size.
    const recorded = (capsReached: unknown[], count: number) =>
      explainAnswer({
        ...base,
        method: 'bioweave',
        answerType: 'count',
        evidence: [],
        params: { k: 5, rawPathCap: 200 },
        answer: { ...base.answer!, text: String(count), count, extra: { capsReached } },
      }).partial;
    expect(recorded([{ param: 'rawPathCap', value: 200 }], 137)?.line).toBe(
      'This count may be partial: rawPathCap = 200 KG paths retrieved per round before ranking, and the run reached it.',
    );
    expect(recorded([], 200)).toBeNull();
    // Nor are its uncited records read as cut by K: K picks evidence units, each KG unit every path of its metapath.
    expect(
      explainAnswer({
        ...base,
        method: 'bioweave',
        answerType: 'list',
        params: { k: 5, rawPathCap: 200 },
        answer: { ...base.answer!, extra: { capsReached: [] } },
      }).partial,
    ).toBeNull();
  });

  it('names switched-off channels as a limit, and says nothing for a single answer', () => {
    expect(explainAnswer({ ...base, evidence: [], switches: { ...base.switches!, web: false } }).partial?.line).toBe(
      'This list may be partial: switched off: web.',
    );
    expect(explainAnswer({ ...base, answerType: 'open', answer: { ...base.answer!, items: ['ALB'] } }).partial).toBeNull();
  });

  it('gives one line for an abstention, from the switches, the linking, or the recorded rationale', () => {
    const abstained = {
      ...base,
      answer: { abstained: true, text: '', claims: [], rationale: 'No retrieved triple connects the entities. More text follows here.' },
    };
    expect(explainAnswer({ ...abstained, switches: { ...base.switches!, kg: false } }).abstention).toMatch(/^The kg switch was off/);
    expect(explainAnswer({ ...abstained, seeds: [] }).abstention).toMatch(/^No entity of the question was found in the knowledge graph/);
    expect(explainAnswer({ ...abstained, question: '?? 12 !!' }).abstention).toMatch(/no words/);
    expect(explainAnswer(abstained).abstention).toBe('No retrieved triple connects the entities.');
    // A reasoning chain that ends in its verdict: the verdict is the reason, not the chain's first line.
    const chain =
      'Hop 1 (KG-STRICT): ABCB1; ABL1; CASP3. DaG(Parkinson disease) = {ABL1, CASP3} Abstained: no option matches: none of the 3 derived answer(s) is an option.';
    expect(explainAnswer({ ...abstained, answer: { ...abstained.answer, rationale: chain } }).abstention).toBe(
      'No option matches: none of the 3 derived answer(s) is an option.',
    );
    expect(explainAnswer({ ...abstained, answer: { ...abstained.answer, rationale: '' } }).abstention).toBe(
      'The evidence the method retrieved did not support an answer.',
    );
    expect(explainAnswer(abstained).partial).toBeNull();
  });
});
