import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { Xr2Params } from '../params';
import { establishedLines, type LoopState } from '../state';
import { decomposeTemplate, type Decomposition, type Xr2Frame } from '../templates';
import { callRole } from './call';

/** Decomp_t ← Decompose(Q, D, A_{t−1}): mandatory; at t > 1 conditioned on the last answer and the gap its check named. */
export async function decompose(ctx: MethodContext<Xr2Params>, parent: StepHandle, frame: Xr2Frame, state: LoopState, t: number): Promise<Decomposition> {
  const previous = state.previous;
  return ctx.trace.step(
    { kind: 'xr2.decompose', label: previous ? 'Re-decompose' : 'Decompose', input: { t, gap: previous?.check.missing ?? [] }, parent },
    async (step) => {
      const established = establishedLines(state, ctx.params.establishedCap);
      const out = await callRole(ctx, step, decomposeTemplate, {
        frame,
        t,
        tMax: ctx.params.tMax,
        previous,
        established: established.lines,
        establishedOmitted: established.omitted,
      });
      return { ...out, current: out.current.trim() || frame.question };
    },
  );
}
