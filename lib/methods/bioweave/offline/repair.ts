import { kindPlural } from '@/lib/llm/offline/metaedges';
import { findHop, type PlanHop, type Source } from '../plan';
import type { Repair, RepairCandidate, RepairInput } from '../templates';

/**
 * The source-repair controller without a model. An uncertain hop (the
 * question named no relation) is re-read on the KG with every relation between
 * its kinds; a hop whose KG search hit the raw cap is expanded again from its
 * frontier, once; a hop the question named is not reinterpreted, only looked
 * for again in text (once per source). Candidates the KG can still serve come
 * first: a missing typed relation is KG structure before it is prose.
 */
const TEXT_TRIES = 2;

function options(c: RepairCandidate, hop: PlanHop | undefined, active: Source[]): { sources: Source[]; widen: boolean } {
  const widen = !!hop && !hop.explicit && c.canWiden && c.tried.kg !== 'widened';
  const reexpand = c.capped && c.tried.kgRounds < 2;
  const sources: Source[] = [];
  if (active.includes('kg') && (widen || reexpand)) sources.push('kg');
  // More text cannot complete a capped KG set; it can supply a hop the KG lacks.
  if (!c.capped) {
    if (active.includes('doc') && c.tried.doc < TEXT_TRIES) sources.push('doc');
    if (active.includes('web') && c.tried.web < TEXT_TRIES) sources.push('web');
  }
  return { sources, widen: widen && sources.includes('kg') };
}

export function decideRepairOffline(input: RepairInput): Repair {
  const viable = input.candidates
    .map((c) => ({ c, hop: findHop(input.plan, c.id)?.hop, ...options(c, findHop(input.plan, c.id)?.hop, input.activeSources) }))
    .filter((v) => v.sources.length);
  const pick = viable.find((v) => v.sources.includes('kg')) ?? viable[0];
  if (!pick) {
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
  const { c, hop, sources, widen } = pick;
  const how = widen
    ? `re-read on the KG with ${c.relations.join(', ')}`
    : sources.includes('kg')
      ? 're-expanded on the KG from its frontier'
      : 'the relation is as the question names it';
  const text = sources.filter((s) => s !== 'kg');
  return {
    repairNeeded: true,
    missingHop: c.id,
    targetEntities: c.frontier.slice(0, 5),
    targetRelation: widen ? c.relations : [],
    updatedSourcePlan: sources,
    retrievalQueries: [`${c.frontier.slice(0, 3).join(' ')} ${hop ? kindPlural(hop.toKind) : ''}`.trim() || input.question],
    briefReason: `${c.description}; ${how}${text.length ? `; targeted ${text.join(' and ')} queries` : ''}`,
  };
}
