import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { actionOf, type Action } from '../state';
import { checkTemplate, type CheckInput, type CheckOutput } from '../templates';
import { callRole } from './call';

/** stop_t ← Check(A_t, Q, D), and the action it leads to: return A_t, or re-decompose. */
export async function check(ctx: MethodContext<unknown>, parent: StepHandle, input: CheckInput): Promise<{ verdict: CheckOutput; action: Action }> {
  return ctx.trace.step(
    {
      kind: 'xr2.check',
      label: 'Self-check',
      input: { t: input.t, unexamined: input.unexamined, newEvidence: input.newEvidence, newMemory: input.newMemory },
      parent,
    },
    async (step) => {
      const verdict = await callRole(ctx, step, checkTemplate, input);
      return { verdict, action: actionOf(verdict, input.t, input.tMax) };
    },
  );
}
