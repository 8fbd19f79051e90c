import { profileOf } from '@/lib/trace/evidence-data';
import type { LocatedEntity } from '@/lib/llm/offline/types';
import type { MethodContext } from '../../types';
import { asLinked } from '@/lib/llm/offline/linked';
import type { QuestionFrame } from '../frame';
import { SOURCES, validatePlan, type Plan, type Source } from '../plan';
import { initTemplate } from '../templates';
import { stage, type Staged } from '../usage';

export interface Initialisation {
  frame: QuestionFrame;
  plan: Plan;
  /** What validation removed from the role's plan. */
  corrections: string[];
  /** Constraints on the question's linked entities that the plan could not follow (validatePlan): the operator stays unmet while any is. */
  unfollowed: string[];
  excludedSources: { source: Source; reason: string }[];
}

/**
 * AbstractQuestion + InitSourcePlan: link the question's (and options')
 * mentions through the entity channel to get C_q, read profile aliases, and
 * ask the decompose role for the plan, which is then held to the linked
 * entities, the metagraph and the enabled channels.
 */
export async function initialise(ctx: MethodContext<unknown>): Promise<Staged<Initialisation>> {
  return stage(
    ctx,
    { kind: 'bioweave.init', label: 'Initialise', input: { question: ctx.question.text, documentIds: ctx.question.documentIds } },
    'initialise',
    async (step, call) => {
      const linked = await ctx.channels.entity.linkQuestion(step, ctx.question.text, ctx.question.options);
      const entities = asLinked(linked.entities) as LocatedEntity[];
      const optionLinks = Object.fromEntries(Object.entries(linked.optionLinks).map(([key, links]) => [key, asLinked(links) as LocatedEntity[]]));
      const ids = [...new Set(entities.map((e) => e.nodeId))];
      const profiles = ids.length ? await ctx.channels.entity.profiles(step, ids) : null;
      const aliases: Record<string, string[]> = {};
      for (const r of profiles?.items ?? []) {
        const data = profileOf(r);
        aliases[data.nodeId] = [...new Set([...(aliases[data.nodeId] ?? []), ...(data.aliases ?? [])])];
      }
      const enabledSources = SOURCES.filter((s) => ctx.channels.switches[s]);
      const frame: QuestionFrame = {
        question: ctx.question.text,
        options: ctx.question.options,
        entities,
        optionLinks,
        aliases,
        enabledSources,
        attachedDocuments: ctx.question.documentIds.length,
      };
      const raw = await call(initTemplate, { frame });
      const { plan, notes, unfollowed } = validatePlan(raw, frame);
      return {
        frame,
        plan,
        corrections: notes,
        unfollowed,
        excludedSources: SOURCES.filter((s) => !enabledSources.includes(s)).map((source) => ({ source, reason: `${source} switch is off` })),
      };
    },
  );
}
