import { describe, expect, it } from 'vitest';
import { k2vRewards, passRate } from '@/lib/verify/rewards';
import { generalCriteria } from '@/lib/verify/criteria';

describe('K2V rewards', () => {
  it('p is the share of criteria met', () => {
    expect(passRate(['yes', 'no', 'yes', 'yes'])).toBe(0.75);
    expect(passRate([])).toBe(0);
  });

  it('plain sum: R_format + α·1[correct] + p; gated: R_format + 1[correct]·(α + p)', () => {
    expect(k2vRewards({ wellFormed: true, correct: true, passRate: 0.75, alpha: 6, formatReward: 1 })).toEqual({
      format: 1,
      answer: 6,
      reasoning: 0.75,
      plain: 7.75,
      gated: 7.75,
    });
    // A wrong answer keeps its reasoning reward in the plain sum and loses it under the gate.
    expect(k2vRewards({ wellFormed: true, correct: false, passRate: 0.75, alpha: 6, formatReward: 1 })).toEqual({
      format: 1,
      answer: 0,
      reasoning: 0.75,
      plain: 1.75,
      gated: 1,
    });
    expect(k2vRewards({ wellFormed: false, correct: false, passRate: 0.5, alpha: 2, formatReward: 0.75 })).toEqual({
      format: 0,
      answer: 0,
      reasoning: 0.5,
      plain: 0.5,
      gated: 0,
    });
    expect(k2vRewards({ wellFormed: false, correct: true, passRate: 0.5, alpha: 2, formatReward: 0.75 })).toMatchObject({ plain: 2.5, gated: 2.5 });
  });

  it('without a gold answer the answer reward, and so both totals, are unknown', () => {
    expect(k2vRewards({ wellFormed: true, correct: null, passRate: 0.5, alpha: 6, formatReward: 1 })).toEqual({
      format: 1,
      answer: null,
      reasoning: 0.5,
      plain: null,
      gated: null,
    });
  });

  it('the general criteria file is versioned and every criterion names an offline check', () => {
    const g = generalCriteria();
    expect(g.version).toBe(1);
    expect(new Set(g.criteria.map((c) => c.id)).size).toBe(g.criteria.length);
    expect(g.criteria.every((c) => c.check)).toBe(true);
  });
});
