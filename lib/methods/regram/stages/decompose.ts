import { ModelCallError } from '@/lib/llm/errors';
import type { MethodContext } from '../../types';
import type { RegramParams } from '../params';
import { decomposeTemplate, type QuestionFrame } from '../templates';
import { callRole } from './call';

export interface HopPlan {
  hop: number;
  question: string;
  /** The earlier hop whose answers this hop starts from. */
  usesHop: number | null;
}

export interface Decomposition {
  hops: HopPlan[];
  analysis: string;
  /** Why the question runs as one hop instead, when the decomposition failed. */
  fallback: string | null;
  /** Hops beyond H, dropped. */
  dropped: string[];
}

/**
 * Step 2: up to H hop questions; when no usable decomposition comes back, the
 * question itself is the one hop. With `multiHop` off (ablation) it is the one
 * hop from the start, and the step is skipped.
 */
export async function decompose(ctx: MethodContext<RegramParams>, frame: QuestionFrame): Promise<Decomposition> {
  const maxHops = ctx.params.maxHops;
  if (!ctx.params.multiHop) {
    const why = 'ablation (multiHop off): the whole question is the one hop';
    await ctx.trace.skipped({ kind: 'regram.decompose', label: 'Decompose into hops', input: { question: frame.question, maxHops } }, why);
    return { hops: [{ hop: 1, question: frame.question, usesHop: null }], analysis: '', fallback: why, dropped: [] };
  }
  return ctx.trace.step({ kind: 'regram.decompose', label: 'Decompose into hops', input: { question: frame.question, maxHops } }, async (step) => {
    const oneHop = (why: string): Decomposition => ({ hops: [{ hop: 1, question: frame.question, usesHop: null }], analysis: '', fallback: why, dropped: [] });
    let output;
    try {
      output = await callRole(ctx, step, decomposeTemplate, { frame, maxHops });
    } catch (error) {
      if (error instanceof ModelCallError && error.kind === 'invalid_output')
        return oneHop(`the decomposition could not be parsed (${error.message}): one hop, the question itself`);
      throw error;
    }
    const questions = output.hops.filter((h) => h.question.trim());
    if (!questions.length) return oneHop('the decomposer gave no hops: one hop, the question itself');
    const hops = questions.slice(0, maxHops).map((h, i) => ({
      hop: i + 1,
      question: h.question.trim(),
      // Only an earlier hop can be built on.
      usesHop: h.usesHop !== null && h.usesHop >= 1 && h.usesHop <= i ? h.usesHop : null,
    }));
    return { hops, analysis: output.analysis, fallback: null, dropped: questions.slice(maxHops).map((h) => h.question) };
  });
}
