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
      const linked = await ctx.channels.entity.linkQuestion(step, ctx.question.text, ctx.question.options);
      const entities = asLinked(linked.entities);
      const optionLinks = Object.fromEntries(Object.entries(linked.optionLinks).map(([key, links]) => [key, asLinked(links)]));
      const attached = ctx.question.documentIds.length ? (await ctx.channels.doc.attached(step)).items : [];
      await ctx.trace.markSelected(attached.map((r) => r.id));
      return { question: ctx.question.text, options: ctx.question.options, entities, optionLinks, context: attached.map(toItem), retrieved: [] };
    },
  );
}
