import { sumStageUsage, tallyStage, type StageTally } from '@/lib/llm/tokens';
import type { ModelResult, RoleTemplate } from '@/lib/llm/types';
import type { StepKind, StepOutput } from '@/lib/trace/step-schemas';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../types';

/**
 * Model calls, tokens and wall time per BioWeave stage. Every stage step
 * returns its usage in its output, so a resumed run (which replays outputs)
 * reports the same totals.
 */

export const STAGES = ['initialise', 'explore', 'convert', 'verify', 'select', 'refine', 'operator', 'repair', 'answer'] as const;
export type Stage = (typeof STAGES)[number];

/** Tokens are chars/4 estimates (`estimated`) where the backend reports none (the offline engine); `ms`, the stage's wall time. */
export type StageUsage = StageTally<Stage> & { ms: number };

export interface Staged<T> {
  output: T;
  usage: StageUsage;
}

/** A role call inside a stage: recorded on the stage's step, counted in its usage. */
export type RoleCaller = <I, O>(template: RoleTemplate<I, O>, input: I, params?: { maxTokens?: number }) => Promise<O>;

/** What a stage kind's contract allows its stage to produce (beside the usage). */
type StageOutput<K extends StepKind> = StepOutput<K> extends { output: infer O } ? O : never;

/** Runs one stage as a trace step whose output carries the stage's usage. */
export async function stage<K extends StepKind, T extends StageOutput<K>>(
  ctx: MethodContext<unknown>,
  spec: { kind: K; label: string; input?: unknown; parent?: StepHandle | null },
  name: Stage,
  fn: (step: StepHandle, call: RoleCaller) => Promise<T>,
): Promise<Staged<T>> {
  // T fits the kind's output, so the staged value fits the kind's contract (which TypeScript cannot follow through the generic).
  return ctx.trace.step<K, StepOutput<K>>(spec, async (step) => {
    const started = Date.now();
    const results: ModelResult<unknown>[] = [];
    const call: RoleCaller = async (template, input, params) => {
      const result = await ctx.model.call(template, input, { recorder: ctx.trace.callRecorder(step), params: { temperature: 0, ...params } });
      results.push(result);
      if (result.parsed === null) throw new Error(`${template.id} returned no usable output`);
      return result.parsed;
    };
    const output = await fn(step, call);
    const staged: Staged<T> = { output, usage: { ...tallyStage(name, results), ms: Date.now() - started } };
    return staged as StepOutput<K>;
  }) as Promise<Staged<T>>;
}

/** Per-stage totals in pipeline order, and the run's totals. */
export function totalUsage(usages: StageUsage[]): { stages: StageUsage[]; calls: number; tokensIn: number; tokensOut: number; ms: number } {
  const totals = sumStageUsage(STAGES, usages);
  return { ...totals, ms: totals.stages.reduce((n, s) => n + s.ms, 0) };
}
