import { RELATION_CATEGORIES, RELATION_WEIGHTS, type RelationCategory, type RelationDomain } from '@/lib/kg/metaedge-categories';
import type { MethodContext } from '../../types';
import { classifyTemplate, type QuestionFrame } from '../templates';
import { callRole } from './call';

export interface DomainTyping {
  domain: RelationDomain;
  reason: string;
  /** The column of relation weights w_r the domain selects (paper Table 7). */
  weights: Record<RelationCategory, number>;
}

/** Step 1: the query's domain, a semantic prior for relation weighting. */
export async function typeDomain(ctx: MethodContext<unknown>, frame: QuestionFrame): Promise<DomainTyping> {
  return ctx.trace.step({ kind: 'regram.domain', label: 'Domain typing', input: { question: frame.question } }, async (step) => {
    const { category, reason } = await callRole(ctx, step, classifyTemplate, { frame });
    const weights = Object.fromEntries(RELATION_CATEGORIES.map((c) => [c, RELATION_WEIGHTS[c][category]])) as Record<RelationCategory, number>;
    return { domain: category, reason, weights };
  });
}
