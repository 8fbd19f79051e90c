import { kindPlural } from '@/lib/llm/offline/metaedges';
import { findHop, type Source } from '../plan';
import type { Repair, RepairCandidate, RepairInput } from '../templates';

/**
 * The source-repair controller without a model: take the first missing hop
 * something untried could still supply. An uncertain hop (the question named
 * no relation) is re-read on the KG with every relation between its kinds; a
 * hop the question named is not reinterpreted, only looked for again in text
 * (once per source), from the frontier the earlier hops reached.
 */
const TEXT_TRIES = 2;

function options(c: RepairCandidate, explicit: boolean, active: Source[]): Source[] {
  const out: Source[] = [];
  if (active.includes('kg') && !explicit && c.canWiden && c.tried.kg !== 'widened') out.push('kg');
  if (active.includes('doc') && c.tried.doc < TEXT_TRIES) out.push('doc');
  if (active.includes('web') && c.tried.web < TEXT_TRIES) out.push('web');
  return out;
}

export function decideRepairOffline(input: RepairInput): Repair {
  for (const c of input.candidates) {
    const hop = findHop(input.plan, c.id)?.hop;
    const sources = options(c, hop?.explicit ?? true, input.activeSources);
    if (!sources.length) continue;
    const widen = sources.includes('kg');
    const target = hop ? kindPlural(hop.toKind) : '';
    return {
      repairNeeded: true,
      missingHop: c.id,
      targetEntities: c.frontier.slice(0, 5),
      targetRelation: widen ? c.relations : [],
      updatedSourcePlan: sources,
      retrievalQueries: [`${c.frontier.slice(0, 3).join(' ')} ${target}`.trim() || input.question],
      briefReason: `${c.description}; ${widen ? `re-read on the KG with ${c.relations.join(', ')}` : 'the relation is as the question names it'}${sources.some((s) => s !== 'kg') ? `; targeted ${sources.filter((s) => s !== 'kg').join(' and ')} queries` : ''}`,
    };
  }
  return {
    repairNeeded: false,
    missingHop: input.candidates[0]?.id ?? null,
    targetEntities: [],
    targetRelation: [],
    updatedSourcePlan: [],
    retrievalQueries: [],
    briefReason: 'every source that could supply a missing hop has been tried',
  };
}
