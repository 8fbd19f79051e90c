import type { EntityLink } from '@/lib/kg';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { MethodContext } from '../../types';
import type { QuestionFrame } from '../templates';

/** Links the question's (and each option's) entity mentions through the entity channel: every role sees the same reading. */
export async function readQuestion(ctx: MethodContext<unknown>): Promise<QuestionFrame> {
  return ctx.trace.step({ kind: 'eigen1.read', label: 'Read the question', input: { question: ctx.question.text } }, async (step) => {
    const entities = located(await ctx.channels.entity.link(step, ctx.question.text, 'Link question entities'));
    const optionLinks: Record<string, LinkedEntity[]> = {};
    for (const [key, text] of Object.entries(ctx.question.options ?? {})) {
      optionLinks[key] = located(await ctx.channels.entity.link(step, text, `Link option ${key}`));
    }
    return { question: ctx.question.text, options: ctx.question.options, entities, optionLinks };
  });
}

/** Links with offsets into their text (linkEntities always gives them). */
export function located(links: EntityLink[]): LinkedEntity[] {
  return links.flatMap((l) =>
    l.start === undefined || l.end === undefined ? [] : [{ nodeId: l.nodeId, kind: l.kind, name: l.name, mention: l.mention, start: l.start, end: l.end, score: l.score }],
  );
}
