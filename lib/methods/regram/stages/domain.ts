import type { RegramParams } from '../params';
import { RELATION_CATEGORIES, RELATION_WEIGHTS, type RelationCategory, type RelationDomain } from '@/lib/kg/metaedge-categories';
import type { MethodContext } from '../../types';
import { classifyTemplate, type QuestionFrame } from '../templates';
import { callRole } from './call';

export interface DomainTyping {
  /** Null without the domain prior (ablation): every relation then weighs 1. */
  domain: RelationDomain | null;
  reason: string;
  /** The column of relation weights w_r the domain selects (paper Table 7). */
  weights: Record<RelationCategory, number>;
}

/** Step 1: the query's domain, a semantic prior for relation weighting; with `domainPrior` off a skipped step and uniform weights. */
export async function typeDomain(ctx: MethodContext<RegramParams>, frame: QuestionFrame): Promise<DomainTyping> {
  if (!ctx.params.domainPrior) {
    const reason = 'ablation (domainPrior off): no domain typing; every relation weighs w_r = 1';
    await ctx.trace.skipped({ kind: 'regram.domain', label: 'Domain typing', input: { question: frame.question } }, reason);
    return { domain: null, reason, weights: Object.fromEntries(RELATION_CATEGORIES.map((c) => [c, 1])) as Record<RelationCategory, number> };
  }
  return ctx.trace.step({ kind: 'regram.domain', label: 'Domain typing', input: { question: frame.question } }, async (step) => {
    const { category, reason } = await callRole(ctx, step, classifyTemplate, { frame });
    const weights = Object.fromEntries(RELATION_CATEGORIES.map((c) => [c, RELATION_WEIGHTS[c][category]])) as Record<RelationCategory, number>;
    return { domain: category, reason, weights };
  });
}
