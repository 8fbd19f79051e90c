import type { ModelResult, RoleTemplate } from '@/lib/llm/types';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { usageOf, type Stage, type StageUsage } from '../usage';

/** One role call recorded on its step, with its parsed output and its usage for the stage ledger. */
export async function callRole<I, O>(
  ctx: MethodContext<unknown>,
  step: StepHandle,
  stage: Stage,
  template: RoleTemplate<I, O>,
  input: I,
): Promise<{ output: O; usage: StageUsage }> {
  const result: ModelResult<O> = await ctx.model.call(template, input, { recorder: ctx.trace.callRecorder(step) });
  if (result.parsed === null) throw new Error(`${template.id} returned no usable output`);
  return { output: result.parsed, usage: usageOf(stage, [result]) };
}
