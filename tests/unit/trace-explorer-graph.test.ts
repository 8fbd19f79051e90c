import { describe, expect, it } from 'vitest';
import { edgesOfEvidence, runToGraph } from '@/components/runs/evidence-graph';
import { lineageColumn, lineageLayout, lineageModel, type LineageGraphData } from '@/components/trace/renderers/eigen1-lineage';
import { resolveRenderer } from '@/components/trace/renderers/resolve';
import { streamPieces } from '@/components/trace/renderers/stream-pieces';
import type { EvidenceView } from '@/lib/runs/view';
import { stepHeadline } from '@/lib/trace/headline';
import { rejectedHypotheses } from '@/lib/trace/hypotheses';

const triple = (edgeId: number, s: [string, string, string], t: [string, string, string], metaedge = 'CtD', verb = 'treats') => ({
  edgeId,
  sourceId: s[0],
  sourceName: s[1],
  sourceKind: s[2],
  metaedge,
  verb,
  targetId: t[0],
  targetName: t[1],
  targetKind: t[2],
});
const MET: [string, string, string] = ['Compound::DB00331', 'Metformin', 'Compound'];
const T2D: [string, string, string] = ['Disease::DOID:9352', 'type 2 diabetes mellitus', 'Disease'];
const PCOS: [string, string, string] = ['Disease::DOID:11612', 'polycystic ovary syndrome', 'Disease'];
const PPARG: [string, string, string] = ['Gene::5468', 'PPARG', 'Gene'];

let ordinal = 0;
function ev(partial: Partial<EvidenceView> & Pick<EvidenceView, 'kind' | 'ref' | 'data'>): EvidenceView {
  const o = ordinal++;
  return { id: `e${o}`, ordinal: o, stepId: 's1', channel: 'kg', text: partial.ref, scores: null, selected: false, ...partial };
}

const evidence: EvidenceView[] = [
  ev({ id: 'e-sel', kind: 'triple', ref: 'edge:1', data: triple(1, MET, T2D), selected: true, stepId: 's1' }),
  ev({ id: 'e-dup', kind: 'triple', ref: 'edge:1', data: triple(1, MET, T2D), selected: false, stepId: 's2' }),
  ev({ id: 'e-cand', kind: 'triple', ref: 'edge:2', data: triple(2, MET, PCOS), stepId: 's1' }),
  ev({
    id: 'e-path',
    kind: 'path',
    ref: 'path:3-4',
    data: { hops: [triple(3, T2D, PPARG, 'DaG', 'associates'), triple(4, PCOS, PPARG, 'DaG', 'associates')] },
    stepId: 's2',
    selected: true,
  }),
  ev({
    id: 'e-hyp',
    kind: 'hypothesis',
    ref: 'hypothesis:hop1:h1',
    data: { ...triple(0, PCOS, T2D, 'DrD', 'resembles'), edgeId: null },
    selected: true,
    stepId: 's3',
  }),
  ev({
    id: 'e-unit',
    kind: 'unit',
    channel: 'doc',
    ref: 'unit:p1@0-10',
    data: {
      entities: [
        { nodeId: MET[0], name: MET[1], kind: MET[2] },
        { nodeId: T2D[0], name: T2D[1], kind: T2D[2] },
      ],
      relations: ['CtD'],
      predicate: null,
    },
    stepId: 's3',
  }),
  ev({ id: 'e-passage', kind: 'passage', channel: 'doc', ref: 'passage:x:0-5', data: { documentId: 'd1', start: 0, end: 5 }, stepId: 's1' }),
];
const stepOrdinals = new Map([
  ['s1', 1],
  ['s2', 2],
  ['s3', 3],
  ['s4', 4],
]);
const rejected = rejectedHypotheses([
  {
    id: 's4',
    kind: 'regram.hypotheses',
    ordinal: 4,
    output: {
      records: [
        {
          id: 'h2',
          verdict: 'rejected',
          score: 0.2,
          triple: { head: 'PPARG', relation: 'treats', tail: 'metformin' },
          resolved: {
            source: { nodeId: PPARG[0], name: 'PPARG', kind: 'Gene' },
            target: { nodeId: MET[0], name: 'Metformin', kind: 'Compound' },
            metaedge: null,
          },
        },
        { id: 'h3', verdict: 'rejected', resolved: { source: null, target: null } },
        { id: 'h1', verdict: 'accepted', resolved: { source: { nodeId: PCOS[0] }, target: { nodeId: T2D[0] } } },
      ],
    },
  },
]);
const input = {
  evidence,
  seeds: [{ nodeId: MET[0], name: 'Metformin', kind: 'Compound', mention: 'metformin', method: 'exact', score: 1 }],
  answerNodeIds: [PCOS[0]],
  rejectedHypotheses: rejected,
};

describe('runToGraph', () => {
  const graph = runToGraph(input, { stepOrdinals });
  const edge = (id: string) => graph.model.edges.find((e) => e.id === id);

  it('draws each KG edge once, selected when any record of it was selected', () => {
    expect(edge('kg:1')!.classes).toContain('selected');
    expect(edge('kg:2')!.classes).toContain('candidate');
    expect(graph.evidenceByElement.get('kg:1')).toEqual(['e-sel', 'e-dup']);
    expect(graph.kgEdges).toBe(4);
  });

  it('draws path hops as KG edges and hypotheses dashed, accepted or rejected', () => {
    expect(edge('kg:3')!.label).toBe('associates');
    expect(edge('hyp:hypothesis:hop1:h1')!.classes).toContain('hypothesis-accepted');
    const rejectedEdge = graph.model.edges.find((e) => e.classes?.includes('hypothesis-rejected'))!;
    expect([rejectedEdge.source, rejectedEdge.target]).toEqual([PPARG[0], MET[0]]);
    expect(graph.rejectedByElement.get(rejectedEdge.id)!.text).toContain('rejected');
    expect(graph.hasHypotheses).toBe(true);
  });

  it('links the entities a text unit names and colours edges by source when several channels contributed', () => {
    const unitEdge = graph.model.edges.find((e) => e.channel === 'doc')!;
    expect([unitEdge.source, unitEdge.target, unitEdge.label]).toEqual([MET[0], T2D[0], 'CtD']);
    expect(graph.channels.sort()).toEqual(['doc', 'kg']);
    expect(unitEdge.classes).toContain('by-source');
  });

  it('rings seeds and answers; ranks seeds, then chosen evidence, then candidates by hops', () => {
    const node = (id: string) => graph.model.nodes.find((n) => n.id === id)!;
    expect(node(MET[0]).classes).toContain('seed');
    expect(node(PCOS[0]).classes).toContain('answer');
    expect([node(MET[0]).rank, node(T2D[0]).rank, node(PPARG[0]).rank]).toEqual([3, 2, 2]);
    const candidatesOnly = runToGraph({ ...input, evidence: evidence.filter((e) => e.id === 'e-cand'), rejectedHypotheses: [], answerNodeIds: [] });
    expect(candidatesOnly.model.nodes.map((n) => [n.id, n.rank])).toEqual([
      [MET[0], 3],
      [PCOS[0], 1],
    ]);
  });

  it('shows the graph as of a step, or only a step', () => {
    const asOf1 = runToGraph(input, { stepOrdinals, asOfOrdinal: 1 });
    expect(asOf1.model.edges.map((e) => e.id).sort()).toEqual(['kg:1', 'kg:2']);
    expect(asOf1.evidenceByElement.get('kg:1')).toEqual(['e-sel']);
    const only2 = runToGraph(input, { stepOrdinals, onlySteps: new Set(['s2']) });
    expect(only2.model.edges.map((e) => e.id).sort()).toEqual(['kg:1', 'kg:3', 'kg:4']);
    // Seeds stay drawn with the KG cut away.
    expect(runToGraph({ ...input, evidence: [], rejectedHypotheses: [] }).model.nodes.map((n) => n.id)).toEqual([MET[0]]);
  });

  it('gives passages and profiles no edge', () => {
    expect(edgesOfEvidence(evidence.find((e) => e.id === 'e-passage')!)).toEqual([]);
  });
});

describe('rejectedHypotheses', () => {
  it('reads only rejected hypotheses with both ends resolved', () => {
    expect(rejected.map((h) => h.id)).toEqual(['hypothesis:regram.hypotheses#4:h2']);
    expect(rejected[0]).toMatchObject({ label: 'treats', score: 0.2, stepId: 's4' });
  });
});

describe('stepHeadline', () => {
  it('summarises outcomes from keys methods share', () => {
    expect(stepHeadline('skipped', { reason: 'kg switch is off' })).toBe('kg switch is off');
    expect(stepHeadline('failed', { error: 'boom' })).toBe('boom');
    expect(stepHeadline('running', { answer: 'x' })).toBeNull();
    expect(stepHeadline('succeeded', { needsRetrieval: true, reason: 'needs facts' })).toBe('needs retrieval — needs facts');
    expect(stepHeadline('succeeded', { answer: ['a', 'b'] })).toBe('answer: a, b');
    expect(stepHeadline('succeeded', { answer: '' })).toBe('abstained');
    expect(stepHeadline('succeeded', [{ nodeId: 'Gene::1', name: 'IL6', mention: 'il6' }])).toBe('linked IL6');
    expect(
      stepHeadline('succeeded', [
        { ref: 'edge:1', channel: 'kg' },
        { ref: 'edge:2', channel: 'kg' },
      ]),
    ).toBe('2 evidence records');
    expect(stepHeadline('succeeded', { rows: [1, 2, 3], k: 15 })).toBe('3 rows');
    expect(stepHeadline('succeeded', { action: 'stop', verdict: { stop: true, reason: 'enough evidence' } })).toBe('stop — enough evidence');
    expect(stepHeadline('succeeded', { usage: { calls: 1 }, output: { decision: 'answer', reason: 'satisfied' } })).toBe('decision: answer — satisfied');
    expect(stepHeadline('succeeded', { query: 'x'.repeat(400) })!.length).toBeLessThanOrEqual(160);
  });
});

describe('streamPieces', () => {
  const text = 'model text. INJECTED ASIDE. more model';
  const segments = [
    { source: 'model' as const, start: 0, end: 12 },
    { source: 'injected' as const, start: 12, end: 28 },
    { source: 'model' as const, start: 28, end: text.length },
  ];

  it('cuts the stream at segment and window boundaries and keeps every character once', () => {
    const pieces = streamPieces(text, segments, { start: 6, end: 20 });
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.map((p) => [p.source, p.inWindow, p.text])).toEqual([
      ['model', false, 'model '],
      ['model', true, 'text. '],
      ['injected', true, 'INJECTED'],
      ['injected', false, ' ASIDE. '],
      ['model', false, 'more model'],
    ]);
  });

  it('treats text no segment covers as model-written', () => {
    expect(streamPieces('abc', [], null)).toEqual([{ start: 0, end: 3, text: 'abc', source: 'model', inWindow: false }]);
  });
});

describe('EIGEN-1 lineage view', () => {
  const data: LineageGraphData = {
    nodes: [
      { id: 'P1', stage: 'proposal', lane: 1, round: null, answer: 'x', abstained: false, q: null, scores: null, passed: null },
      { id: 'P2', stage: 'proposal', lane: 2, round: null, answer: '', abstained: true, q: null, scores: null, passed: null },
      { id: 'E1.2', stage: 'qair-evaluation', lane: 1, round: 2, answer: 'x', abstained: false, q: 4.2, scores: null, passed: true },
      { id: 'S', stage: 'selection', lane: 1, round: null, answer: 'x', abstained: false, q: 4.2, scores: null, passed: true },
    ],
    edges: [
      { from: 'P1', to: 'E1.2', relation: 'evaluates' },
      { from: 'E1.2', to: 'S', relation: 'selects' },
    ],
  };

  it('puts stages in columns (QAIR rounds in pairs, selection last) and lines in rows', () => {
    expect(lineageColumn({ stage: 'qair-evaluation', round: 2 }, 2)).toBe(5);
    expect(lineageColumn({ stage: 'selection', round: null }, 2)).toBe(7);
    const positions = lineageLayout(data).positions as Record<string, { x: number; y: number }>;
    expect(positions.P2.y).toBeGreaterThan(positions.P1.y);
    expect(positions.S.x).toBeGreaterThan(positions['E1.2'].x);
  });

  it('labels versions with their answer and q, and marks abstentions and passes', () => {
    const model = lineageModel(data);
    expect(model.nodes.find((n) => n.id === 'E1.2')!.label).toBe('E1.2: x q=4.20');
    expect(model.nodes.find((n) => n.id === 'P2')!.label).toBe('P2: (abstained)');
    expect(model.nodes.find((n) => n.id === 'S')!.classes).toEqual(['passed']);
  });
});

describe('resolveRenderer', () => {
  const registry = { 'regram.': 'any regram', 'regram.mmr': 'mmr', verify: 'report', 'eigen1.generation': 'stream' };
  it('prefers the exact kind, then the longest prefix', () => {
    expect(resolveRenderer(registry, 'regram.mmr')).toBe('mmr');
    expect(resolveRenderer(registry, 'regram.hop.x')).toBe('any regram');
    expect(resolveRenderer(registry, 'verify')).toBe('report');
    expect(resolveRenderer(registry, 'verify.judge')).toBeNull();
    expect(resolveRenderer(registry, 'eigen1.monitor')).toBeNull();
    expect(resolveRenderer(registry, 'constructor')).toBeNull();
  });
});
