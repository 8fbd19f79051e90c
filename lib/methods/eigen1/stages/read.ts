import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { MethodContext } from '../../types';
import type { QuestionFrame } from '../templates';
import { asLinked } from '@/lib/llm/offline/linked';
import { toItem } from './records';

/**
 * Links the question's (and each option's) entity mentions through the entity
 * channel, and reads the documents attached to the question: every role sees
 * the same problem statement.
 */
export async function readQuestion(ctx: MethodContext<unknown>): Promise<QuestionFrame> {
  return ctx.trace.step(
    { kind: 'eigen1.read', label: 'Read the question', input: { question: ctx.question.text, documentIds: ctx.question.documentIds } },
    async (step) => {
      const entities = asLinked(await ctx.channels.entity.link(step, ctx.question.text, 'Link question entities'));
      const optionLinks: Record<string, LinkedEntity[]> = {};
      for (const [key, text] of Object.entries(ctx.question.options ?? {})) {
        optionLinks[key] = asLinked(await ctx.channels.entity.link(step, text, `Link option ${key}`));
      }
      const attached = ctx.question.documentIds.length ? (await ctx.channels.doc.attached(step)).items : [];
      await ctx.trace.markSelected(attached.map((r) => r.id));
      return { question: ctx.question.text, options: ctx.question.options, entities, optionLinks, context: attached.map(toItem), retrieved: [] };
    },
  );
}
