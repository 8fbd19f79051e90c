import type { RoleTemplate } from '@/lib/llm/types';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';

/** One role call at the paper's sampling settings (temperature, top-p), recorded on the step that makes it; its parsed output. */
export async function callRole<I, O>(
  ctx: MethodContext<{ temperature: number; topP: number }>,
  step: StepHandle,
  template: RoleTemplate<I, O>,
  input: I,
): Promise<O> {
  const { temperature, topP } = ctx.params;
  const result = await ctx.model.call(template, input, { recorder: ctx.trace.callRecorder(step), params: { temperature, topP } });
  if (result.parsed === null) throw new Error(`${template.id} returned no usable output`);
  return result.parsed;
}
