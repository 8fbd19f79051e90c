import { describe, expect, it } from 'vitest';
import { Eigen1ParamsSchema } from '@/lib/methods/eigen1/params';
import { qualityOf } from '@/lib/methods/eigen1/quality';
import { Lineage } from '@/lib/methods/eigen1/lineage';
import { totalUsage } from '@/lib/methods/eigen1/usage';

const paper = Eigen1ParamsSchema.parse({});

describe('QAIR quality', () => {
  it('uses the paper defaults: q = 0.2·logic + 0.6·answer + 0.2·explanation, τ = 3, T_max = 2, K = 5', () => {
    expect([paper.wLogic, paper.wAnswer, paper.wExplanation, paper.tau, paper.tMax, paper.k]).toEqual([0.2, 0.6, 0.2, 3, 2, 5]);
    expect([paper.windowChars, paper.overlapChars, paper.maxInjections, paper.queryTopK]).toEqual([512, 128, 2, 3]);
  });

  it('weighs the answer dimension most and passes at q ≥ τ', () => {
    expect(qualityOf({ logic: 4, answer: 2, explanation: 3 }, paper, paper.tau)).toEqual({
      scores: { logic: 4, answer: 2, explanation: 3 },
      q: 2.6,
      passed: false,
    });
    // 0.2·5 + 0.6·2 + 0.2·4 = 3 exactly: on the threshold, which passes.
    expect(qualityOf({ logic: 5, answer: 2, explanation: 4 }, paper, paper.tau)).toMatchObject({ q: 3, passed: true });
    // The same total spread the other way fails: answer correctness dominates.
    expect(qualityOf({ logic: 2, answer: 2, explanation: 5 }, paper, paper.tau)).toMatchObject({ q: 2.6, passed: false });
  });

  it('clamps scores to 0–5 and follows other weights and thresholds', () => {
    expect(qualityOf({ logic: 9, answer: -1, explanation: 5 }, paper, 3)).toEqual({ scores: { logic: 5, answer: 0, explanation: 5 }, q: 2, passed: false });
    expect(qualityOf({ logic: 1, answer: 5, explanation: 1 }, { wLogic: 0, wAnswer: 1, wExplanation: 0 }, 4.5)).toMatchObject({ q: 5, passed: true });
  });

  it('rejects an overlap as large as the window', () => {
    expect(Eigen1ParamsSchema.safeParse({ windowChars: 128, overlapChars: 128 }).success).toBe(false);
  });
});

describe('lineage and usage', () => {
  it('refuses edges to nodes that were never added, and duplicate nodes', () => {
    const lineage = new Lineage();
    lineage.add({ id: 'P1', stage: 'proposal', lane: 1, answer: 'x', abstained: false });
    expect(() => lineage.link('P1', 'C1', 'revises')).toThrow(/unknown node C1/);
    expect(() => lineage.add({ id: 'P1', stage: 'proposal', lane: 1, answer: 'y', abstained: false })).toThrow(/twice/);
    lineage.add({ id: 'C1', stage: 'correction', lane: 1, answer: 'x', abstained: false });
    lineage.link('P1', 'C1', 'revises');
    expect(lineage.graph()).toEqual({
      nodes: [
        { id: 'P1', stage: 'proposal', lane: 1, round: null, answer: 'x', abstained: false, q: null, scores: null, passed: null },
        { id: 'C1', stage: 'correction', lane: 1, round: null, answer: 'x', abstained: false, q: null, scores: null, passed: null },
      ],
      edges: [{ from: 'P1', to: 'C1', relation: 'revises' }],
    });
  });

  it('sums calls and tokens per stage in pipeline order', () => {
    const total = totalUsage([
      { stage: 'evaluation', calls: 1, tokensIn: 10, tokensOut: 2, estimated: false },
      { stage: 'monitor', calls: 2, tokensIn: 30, tokensOut: 4, estimated: true },
      { stage: 'evaluation', calls: 3, tokensIn: 5, tokensOut: 1, estimated: false },
    ]);
    expect(total.stages).toEqual([
      { stage: 'monitor', calls: 2, tokensIn: 30, tokensOut: 4, estimated: true },
      { stage: 'evaluation', calls: 4, tokensIn: 15, tokensOut: 3, estimated: false },
    ]);
    expect([total.calls, total.tokensIn, total.tokensOut]).toEqual([6, 45, 7]);
  });
});
