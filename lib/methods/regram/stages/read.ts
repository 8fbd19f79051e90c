import { questionOptions } from '@/lib/channels/aids';
import type { MethodContext } from '../../types';
import type { QuestionFrame } from '../templates';

/**
 * Links the question's (and each option's) mentions through the entity
 * channel; every role sees the same frame. Options written into the question
 * become the frame's options as if given apart, so the candidates are one set
 * however they arrive.
 */
export async function readQuestion(ctx: MethodContext<unknown>): Promise<QuestionFrame> {
  const { text } = ctx.question;
  return ctx.trace.step({ kind: 'regram.read', label: 'Read the question', input: { question: text, options: ctx.question.options } }, async (step) => {
    if (ctx.question.options)
      return { question: text, options: ctx.question.options, ...(await ctx.channels.entity.linkQuestion(step, text, ctx.question.options)) };
    // Options written into the question are found among its links: the question is linked first.
    const entities = await ctx.channels.entity.link(step, text, 'Link question entities');
    const inline = questionOptions({ question: text, options: null, entities, optionLinks: {} });
    const options = inline.length ? Object.fromEntries(inline.map((o) => [o.letter, o.text])) : null;
    const optionLinks: QuestionFrame['optionLinks'] = {};
    for (const [key, option] of Object.entries(options ?? {})) optionLinks[key] = await ctx.channels.entity.link(step, option, `Link option ${key}`);
    return { question: text, options, entities, optionLinks };
  });
}
