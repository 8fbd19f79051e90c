import type { MethodContext } from '../../types';
import type { QuestionFrame } from '../templates';

/** Links the question's (and each option's) mentions through the entity channel; every role sees the same frame. */
export async function readQuestion(ctx: MethodContext<unknown>): Promise<QuestionFrame> {
  const { text, options } = ctx.question;
  return ctx.trace.step({ kind: 'regram.read', label: 'Read the question', input: { question: text, options } }, async (step) => {
    const entities = await ctx.channels.entity.link(step, text, 'Link question entities');
    const optionLinks: QuestionFrame['optionLinks'] = {};
    for (const [key, option] of Object.entries(options ?? {})) optionLinks[key] = await ctx.channels.entity.link(step, option, `Link option ${key}`);
    return { question: text, options, entities, optionLinks };
  });
}
