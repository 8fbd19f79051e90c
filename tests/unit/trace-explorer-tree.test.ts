import { describe, expect, it } from 'vitest';
import { alignSteps, mergeGraphs } from '@/components/compare/align';
import { ancestorIds, buildStepTree, filterableSteps, flattenTree, stageName, stageProgress } from '@/components/trace/tree';
import type { StepSummary } from '@/lib/runs/view';

let next = 0;
function step(partial: Partial<StepSummary> & Pick<StepSummary, 'kind' | 'label'>): StepSummary {
  const ordinal = partial.ordinal ?? next++;
  return {
    id: partial.id ?? `s${ordinal}`,
    ordinal,
    parentStepId: null,
    status: 'succeeded',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 10,
    headline: null,
    calls: 0,
    tokensIn: 0,
    tokensOut: 0,
    evidence: 0,
    ...partial,
  };
}

// Two proposers that run in parallel: their children's ordinals interleave.
const steps: StepSummary[] = [
  step({ id: 'read', ordinal: 0, kind: 'm.read', label: 'Read' }),
  step({ id: 'p1', ordinal: 1, kind: 'm.proposer', label: 'Proposer' }),
  step({ id: 'p2', ordinal: 2, kind: 'm.proposer', label: 'Proposer', status: 'running' }),
  step({ id: 'p1.kg', ordinal: 3, parentStepId: 'p1', kind: 'channel.kg', label: 'KG', calls: 2 }),
  step({ id: 'p2.kg', ordinal: 4, parentStepId: 'p2', kind: 'channel.kg', label: 'KG', calls: 1 }),
  step({ id: 'p1.kg.x', ordinal: 5, parentStepId: 'p1.kg', kind: 'm.note', label: 'Note' }),
  step({ id: 'rank', ordinal: 6, kind: 'm.rank', label: 'Rank', status: 'failed' }),
];

describe('buildStepTree', () => {
  const tree = buildStepTree([...steps].reverse());

  it('nests steps under their parents in ordinal order, whatever order they arrive in', () => {
    expect(tree.roots.map((r) => r.step.id)).toEqual(['read', 'p1', 'p2', 'rank']);
    expect(tree.byId.get('p1')!.children.map((c) => c.step.id)).toEqual(['p1.kg']);
    expect(flattenTree(tree.roots).map((n) => `${n.depth}:${n.step.id}`)).toEqual(['0:read', '0:p1', '1:p1.kg', '2:p1.kg.x', '0:p2', '1:p2.kg', '0:rank']);
  });

  it('keys repeated steps by occurrence under their parent, like the recorder does', () => {
    expect(tree.byId.get('p1')!.key).toBe('/m.proposer:Proposer#0');
    expect(tree.byId.get('p2')!.key).toBe('/m.proposer:Proposer#1');
    expect(tree.byId.get('p2.kg')!.key).toBe('/m.proposer:Proposer#1/channel.kg:KG#0');
  });

  it('knows the last ordinal of each subtree (the cut for "as of this step")', () => {
    expect(tree.byId.get('p1')!.lastOrdinal).toBe(5);
    expect(tree.byId.get('p2')!.lastOrdinal).toBe(4);
    expect(tree.byId.get('rank')!.lastOrdinal).toBe(6);
  });

  it('lists ancestors nearest last', () => {
    expect(ancestorIds(tree, 'p1.kg.x')).toEqual(['p1', 'p1.kg']);
    expect(ancestorIds(tree, 'read')).toEqual([]);
  });

  it('reports progress per top-level stage, counting nested model calls', () => {
    expect(stageProgress(tree)).toEqual([
      { kind: 'm.read', total: 1, running: 0, succeeded: 1, failed: 0, skipped: 0, ms: 10, calls: 0 },
      { kind: 'm.proposer', total: 2, running: 1, succeeded: 1, failed: 0, skipped: 0, ms: 20, calls: 3 },
      { kind: 'm.rank', total: 1, running: 0, succeeded: 0, failed: 1, skipped: 0, ms: 10, calls: 0 },
    ]);
  });

  it('counts a planned stage towards its planned size, not the steps started so far', () => {
    const proposer = stageProgress(tree, { 'm.proposer': 5 }).find((s) => s.kind === 'm.proposer')!;
    expect([proposer.succeeded, proposer.running, proposer.total]).toEqual([1, 1, 5]);
  });

  it('offers the steps that brought evidence, down to depth 1, for the graph filter', () => {
    expect(filterableSteps(tree, new Set(['p1.kg.x'])).map((n) => n.step.id)).toEqual(['p1', 'p1.kg']);
  });

  it('names stages readably', () => {
    expect(stageName('eigen1.qair-round')).toBe('qair round');
    expect(stageName('channel.kg')).toBe('kg channel');
    expect(stageName('verify')).toBe('verify');
  });
});

describe('alignSteps', () => {
  const a = [
    step({ id: 'a0', ordinal: 0, kind: 'x.read', label: 'Read' }),
    step({ id: 'a1', ordinal: 1, kind: 'channel.kg', label: 'KG', headline: '3 records' }),
    step({ id: 'a2', ordinal: 2, kind: 'x.answer', label: 'Answer', headline: 'answer: A' }),
  ];
  const b = [
    step({ id: 'b0', ordinal: 0, kind: 'x.read', label: 'Read' }),
    step({ id: 'b1', ordinal: 1, kind: 'channel.doc', label: 'Docs' }),
    step({ id: 'b2', ordinal: 2, kind: 'x.answer', label: 'Answer', headline: 'answer: B' }),
  ];

  it('pairs matching steps and keeps one-sided steps where they happened', () => {
    const rows = alignSteps(a, b);
    expect(rows.map((r) => [r.a?.id ?? null, r.b?.id ?? null])).toEqual([
      ['a0', 'b0'],
      ['a1', null],
      [null, 'b1'],
      ['a2', 'b2'],
    ]);
  });

  it('flags paired steps that came out differently', () => {
    const rows = alignSteps(a, b);
    expect(rows.filter((r) => r.differs).map((r) => r.label)).toEqual(['Answer']);
  });

  it('aligns stages by kind and iteration, not by position or label', () => {
    // B ran an extra document stage first and a third iteration; its hop answers are labelled by mode.
    const runA = [
      step({ id: 'A.read', ordinal: 0, kind: 'm.read', label: 'Read' }),
      step({ id: 'A.it1', ordinal: 1, kind: 'm.iteration', label: 'Iteration 1' }),
      step({ id: 'A.it1.hop', ordinal: 2, parentStepId: 'A.it1', kind: 'm.hop-answer', label: 'Hop answer (KG-STRICT)' }),
      step({ id: 'A.it2', ordinal: 3, kind: 'm.iteration', label: 'Iteration 2' }),
      step({ id: 'A.it2.hop', ordinal: 4, parentStepId: 'A.it2', kind: 'm.hop-answer', label: 'Hop answer (KG-STRICT)' }),
      step({ id: 'A.answer', ordinal: 5, kind: 'm.answer', label: 'Answer' }),
    ];
    const runB = [
      step({ id: 'B.docs', ordinal: 0, kind: 'channel.doc', label: 'Docs' }),
      step({ id: 'B.read', ordinal: 1, kind: 'm.read', label: 'Read' }),
      step({ id: 'B.it1', ordinal: 2, kind: 'm.iteration', label: 'Iteration 1' }),
      step({ id: 'B.it1.hop', ordinal: 3, parentStepId: 'B.it1', kind: 'm.hop-answer', label: 'Hop answer (HYBRID)' }),
      step({ id: 'B.it2', ordinal: 4, kind: 'm.iteration', label: 'Iteration 2' }),
      step({ id: 'B.it2.hop', ordinal: 5, parentStepId: 'B.it2', kind: 'm.hop-answer', label: 'Hop answer (KG-STRICT)' }),
      step({ id: 'B.it3', ordinal: 6, kind: 'm.iteration', label: 'Iteration 3' }),
      step({ id: 'B.it3.hop', ordinal: 7, parentStepId: 'B.it3', kind: 'm.hop-answer', label: 'Hop answer (KG-STRICT)' }),
      step({ id: 'B.answer', ordinal: 8, kind: 'm.answer', label: 'Answer' }),
    ];
    const rows = alignSteps(runA, runB);
    expect(rows.map((r) => [r.a?.id ?? null, r.b?.id ?? null, r.depth, r.iteration])).toEqual([
      [null, 'B.docs', 0, 1],
      ['A.read', 'B.read', 0, 1],
      ['A.it1', 'B.it1', 0, 1],
      ['A.it1.hop', 'B.it1.hop', 1, 1],
      ['A.it2', 'B.it2', 0, 2],
      ['A.it2.hop', 'B.it2.hop', 1, 1],
      [null, 'B.it3', 0, 3],
      [null, 'B.it3.hop', 1, 1],
      ['A.answer', 'B.answer', 0, 1],
    ]);
    const relabelled = rows.find((r) => r.a?.id === 'A.it1.hop')!;
    expect(relabelled.differs).toBe(true);
    expect(relabelled.label).toBe('Hop answer (KG-STRICT) ↔ Hop answer (HYBRID)');
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });

  it('pairs parallel lanes by occurrence even when their children interleave', () => {
    const rows = alignSteps(steps, steps);
    expect(rows.every((r) => r.a && r.b && r.a.id === r.b.id)).toBe(true);
    expect(rows.map((r) => r.a!.id)).toEqual(['read', 'p1', 'p1.kg', 'p1.kg.x', 'p2', 'p2.kg', 'rank']);
  });
});

describe('mergeGraphs', () => {
  it('marks every edge as only in A, only in B or in both, and nodes only one side has', () => {
    const a = {
      nodes: [
        { id: 'n1', label: 'n1', kind: 'Gene', classes: ['seed'] as const },
        { id: 'n2', label: 'n2', kind: 'Gene' },
      ],
      edges: [{ id: 'kg:1', source: 'n1', target: 'n2' }],
    };
    const b = {
      nodes: [
        { id: 'n1', label: 'n1', kind: 'Gene' },
        { id: 'n3', label: 'n3', kind: 'Disease' },
      ],
      edges: [{ id: 'kg:2', source: 'n1', target: 'n3' }],
    };
    const merged = mergeGraphs(a, {
      nodes: [...b.nodes, { id: 'n2', label: 'n2', kind: 'Gene' }],
      edges: [...b.edges, { id: 'kg:1', source: 'n1', target: 'n2' }],
    });
    expect(merged.counts).toEqual({ onlyA: 0, onlyB: 1, both: 1 });
    const only = mergeGraphs(a, b);
    expect(only.counts).toEqual({ onlyA: 1, onlyB: 1, both: 0 });
    expect(only.model.edges.find((e) => e.id === 'kg:1')!.classes).toEqual(['only-a']);
    expect(only.model.nodes.find((n) => n.id === 'n3')!.classes).toContain('node-only-b');
    expect(only.model.nodes.find((n) => n.id === 'n1')!.classes).toEqual(['seed']);
  });
});
