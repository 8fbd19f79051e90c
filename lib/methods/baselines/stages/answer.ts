import type { RoleTemplate } from '@/lib/llm/types';
import type { MethodContext } from '../../types';
import type { EvidenceLine } from '../evidence';
import type { AnswerInput, ContextBlock, Solution } from '../templates';
import type { QuestionFrame } from '../frame';
import type { BaselineId } from './context';

/**
 * The one answer call. Citations are kept only where they name a line the
 * model was shown (a model may invent ids); an empty answer is an abstention.
 */
export async function answerOnce<O extends Solution>(
  ctx: MethodContext<unknown>,
  method: BaselineId,
  template: RoleTemplate<AnswerInput, O>,
  frame: QuestionFrame,
  blocks: ContextBlock[],
): Promise<O> {
  const input: AnswerInput = { frame, blocks, background: ctx.channels.switches.param };
  const shown = Object.fromEntries(blocks.map((b) => [b.channel, b.lines.length]));
  return ctx.trace.step({ kind: `${method}.answer`, label: 'Answer', input: { shown, background: input.background } }, async (step) => {
    const result = await ctx.model.call(template, input, { recorder: ctx.trace.callRecorder(step) });
    if (result.parsed === null) throw new Error(`${template.id} returned no usable output`);
    return admit(
      result.parsed,
      blocks.flatMap((b) => b.lines),
    );
  });
}

export function admit<O extends Solution>(solution: O, lines: EvidenceLine[]): O {
  const known = new Set(lines.map((l) => l.id));
  const abstain = solution.abstain || !solution.answer.trim();
  const claims = abstain ? [] : solution.claims.map((c) => ({ text: c.text, evidenceIds: c.evidenceIds.filter((id) => known.has(id)) }));
  return { ...solution, abstain, answer: abstain ? '' : solution.answer.trim(), claims };
}
