import type { MethodContext } from '../../types';
import { toLine } from '../../baselines/evidence';
import { frameQuestion } from '../../baselines/frame';
import { readDocuments } from '../../baselines/stages/documents';
import type { Xr2Params } from '../params';
import type { Xr2Frame } from '../templates';

/**
 * Q and D: the question's entity links (for the offline engine) and its document evidence, read once for every iteration;
 * with the aids on, an MCQ's options tested against the stem's entities (aid `option-tests`), likewise once.
 */
export async function readQuestion(ctx: MethodContext<Xr2Params>): Promise<Xr2Frame> {
  return ctx.trace.step(
    { kind: 'xr2.read', label: 'Read Q and D', input: { question: ctx.question.text, documentIds: ctx.question.documentIds } },
    async (step) => {
      const frame = await frameQuestion(ctx, step);
      const docs = await readDocuments(ctx, step, frame.question, ctx.params.docK);
      const tested = await ctx.channels.aids.optionTests(step, frame);
      await ctx.trace.markSelected([...docs.items, ...tested].map((d) => d.id));
      return { ...frame, documents: docs.items.map(toLine), optionTests: tested.map(toLine) };
    },
  );
}
