import { describe, expect, it } from 'vitest';
import { firstScreenOf, GIVEN_SHOWN } from '@/components/runs/first-screen';
import { explainAnswer } from '@/lib/runs/answer-explanation';
import type { EvidenceView, RunView, StepSummary } from '@/lib/runs/view';

// The first screen of a run page, cut from the run's view: what the page's first response carries.

function stepOf(id: string, ordinal: number, kind = 'kg-rag.retrieve'): StepSummary {
  return {
    id,
    ordinal,
    parentStepId: null,
    kind,
    label: kind,
    status: 'succeeded',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    headline: null,
    calls: 0,
    tokensIn: 0,
    tokensOut: 0,
    evidence: 0,
  };
}

function record(id: string, stepId: string, selected = true): EvidenceView {
  return { id, ordinal: 0, stepId, channel: 'kg', kind: 'triple', ref: `edge:${id}`, text: id, data: null, scores: null, selected };
}

function view(over: Partial<RunView>): RunView {
  return {
    id: 'run1',
    shareId: 'share1',
    shared: false,
    status: 'succeeded',
    waitingFor: null,
    method: 'kg-rag',
    methodName: 'KG-RAG',
    plannedStages: {},
    offDefaults: [],
    question: 'What treats asthma?',
    questionId: null,
    input: { options: null, answerType: 'list', documentIds: [], gold: null },
    documents: [],
    config: {
      method: 'kg-rag',
      switches: { doc: true, entity: true, kg: true, param: true, web: true },
      params: {},
      kgShuffle: null,
      backend: { backend: 'offline', model: 'offline' },
    },
    configHash: 'h',
    answer: { text: 'albuterol', abstained: false, claims: [], evidenceIds: [] },
    correct: null,
    scores: null,
    cost: null,
    kgVersion: null,
    parent: null,
    configDiff: null,
    children: [],
    error: null,
    attempts: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    steps: [stepOf('s1', 0), stepOf('s2', 1), stepOf('s3', 2)],
    evidence: [record('e1', 's1'), record('e2', 's2'), record('e3', 's3', false)],
    seeds: [],
    rejectedHypotheses: [],
    calls: [],
    verifications: [],
    ...over,
  } as RunView;
}

describe('the first screen of a run page', () => {
  it('carries the records the answer cites and their steps, with the whole run’s counts, and leaves the rest to the view', () => {
    const full = view({
      answer: { text: 'albuterol', abstained: false, claims: [{ text: 'albuterol treats asthma', evidenceIds: ['e2'] }], evidenceIds: ['e3'] },
    });
    const head = firstScreenOf(full);
    expect(head.evidence.map((e) => e.id)).toEqual(['e2', 'e3']);
    expect(head.evidence[0]).not.toHaveProperty('data');
    expect(head.steps.map((s) => s.id)).toEqual(['s2', 's3']);
    expect(head).toMatchObject({ evidenceCount: 3, selectedCount: 2, question: full.question, answer: full.answer });
    expect(head).not.toHaveProperty('calls');
    expect(head).not.toHaveProperty('rejectedHypotheses');
  });

  it('explains the answer from the whole trace, not from what it carries', () => {
    const full = view({ answer: { text: '', abstained: true, claims: [], evidenceIds: [] }, evidence: [record('e1', 's1', false), record('e2', 's2', false)] });
    expect(firstScreenOf(full).explanation).toEqual(
      explainAnswer({ ...full, answerType: full.input.answerType, switches: full.config!.switches, params: full.config!.params }),
    );
  });

  it('lists the first selected records when the answer cites none, and none when its claims cite none', () => {
    const many = Array.from({ length: GIVEN_SHOWN + 5 }, (_, i) => record(`e${i}`, 's1'));
    const uncited = firstScreenOf(view({ evidence: many }));
    expect(uncited.evidence.map((e) => e.id)).toEqual(many.slice(0, GIVEN_SHOWN).map((e) => e.id));
    expect(uncited.selectedCount).toBe(GIVEN_SHOWN + 5);
    const unsupported = firstScreenOf(
      view({ evidence: many, answer: { text: 'x', abstained: false, claims: [{ text: 'x', evidenceIds: [] }], evidenceIds: [] } }),
    );
    expect(unsupported.evidence).toEqual([]);
    expect(unsupported.steps).toEqual([]);
  });

  it('is the same whether cut on the server or from the view fetched later (JSON round trip)', () => {
    const full = view({ answer: { text: 'albuterol', abstained: false, claims: [], evidenceIds: ['e1'] } });
    expect(firstScreenOf(JSON.parse(JSON.stringify(full)) as RunView)).toEqual(JSON.parse(JSON.stringify(firstScreenOf(full))));
  });
});
