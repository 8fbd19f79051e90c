import type { MethodContext } from '../../types';
import type { Eigen1Params } from '../params';
import type { QuestionFrame } from '../templates';
import { toItem } from './records';
import { retrieve } from './retrieve';

/**
 * Explicit RAG, the monitor-off ablation (Table 3 (b) "– (Monitor, Querier,
 * Injector)"; (a) "+ Papers (Explicit RAG)"): one retrieval with the question
 * as the query, before any reasoning, its records put in every role's prompt
 * under their own heading. The budget is what monitored generation may bring
 * in per generation (maxInjections × queryTopK per source), its KG part split
 * across the question's entities (the retrieval step records each one's share),
 * so one entity's neighbourhood cannot fill it. The paper's
 * proposers call a search tool during reasoning instead; here it is one call
 * up front (named in the README's deviations).
 */
export async function retrieveUpFront(ctx: MethodContext<Eigen1Params>, frame: QuestionFrame): Promise<QuestionFrame> {
  const p = ctx.params;
  const topK = p.queryTopK * Math.max(1, p.maxInjections);
  // The step's output is the trace's own records, stored as references to them.
  const records = await ctx.trace.step(
    { kind: 'eigen1.explicit-rag', label: "Explicit RAG (monitor off): the question's retrieval, up front", input: { monitor: false, topK } },
    async (step) => (await retrieve(ctx, step, frame.question, { topK, seed: p.seed, context: '', perEntity: true })).records,
  );
  return { ...frame, retrieved: records.map(toItem) };
}
