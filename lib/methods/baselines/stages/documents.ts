import type { ChannelAnswer } from '@/lib/channels';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';

/**
 * Document evidence for a question: its attached documents when it has any,
 * else the top `k` passages of a full-text search on its text. The doc channel
 * answers "disabled" when the switch is off.
 */
export async function readDocuments(ctx: MethodContext<unknown>, step: StepHandle, query: string, k: number): Promise<ChannelAnswer> {
  if (ctx.question.documentIds.length) return ctx.channels.doc.attached(step);
  return ctx.channels.doc.search(step, query, k);
}
