import type { ChannelAnswer } from '@/lib/channels';
import type { MethodContext, MethodId } from '../../types';
import { toLine } from '../evidence';
import { frameQuestion, linkedNodes, type QuestionFrame } from '../frame';
import type { ContextParams } from '../params';
import type { ContextBlock } from '../templates';
import { readDocuments } from './documents';

/** The baselines: each records its context and answer steps under its own id. */
export type BaselineId = Extract<MethodId, 'direct' | 'cot' | 'kg-rag'>;

export interface Context<A = undefined> {
  frame: QuestionFrame;
  /** What `alongside` gave. */
  alongside: A;
  blocks: ContextBlock[];
  /** Why a channel gave nothing ("doc switch is off", "the model recalled no claims"). */
  notes: string[];
}

/**
 * The context blocks every baseline answers from, one per enabled channel:
 * documents, profiles of the linked entities, parametric recall (kept apart
 * as unverified claims) and web records. KG triples are not among them: only
 * `kg-rag` reads the graph. Everything gathered is shown, so all of it is selected.
 * `alongside`: other work that reads only the linked question (kg-rag's
 * neighbourhood, a step of its own), done while the channels answer. Its result is
 * its own step's output, not held again in the context's (≈ 35 KB a kg-rag run,
 * packed, stringified and deflated twice): a resumed run that replays the stored
 * context runs it after, its steps replaying their stored outputs.
 */
export async function gatherContext<A = undefined>(
  ctx: MethodContext<ContextParams>,
  method: BaselineId,
  alongside?: (frame: QuestionFrame) => Promise<A>,
): Promise<Context<A>> {
  let besides: Promise<A> | undefined;
  const context = await ctx.trace.step({ kind: `${method}.context`, label: 'Context blocks', input: { switches: ctx.channels.switches } }, async (step) => {
    const frame = await frameQuestion(ctx, step);
    const nodes = linkedNodes(frame);
    // The channels read the question independently: asked together (the recall's model call overlaps the document search).
    // Once the recall's request is out: its reads and ranking then run while the model answers, not before the request.
    besides = alongside && ctx.model.requestsOut().then(() => alongside(frame));
    const [doc, entity, param, web] = await Promise.all([
      readDocuments(ctx, step, frame.question, ctx.params.docK),
      ctx.channels.entity.profiles(
        step,
        nodes.map((n) => n.nodeId),
      ),
      ctx.channels.param.recall(
        step,
        frame.question,
        nodes.map((n) => n.name),
      ),
      ctx.channels.web.search(step, frame.question, ctx.params.webK),
      besides,
    ]);
    const answers: [Omit<ContextBlock, 'lines'>, ChannelAnswer][] = [
      [{ channel: 'doc', title: 'Documents' }, doc],
      [{ channel: 'entity', title: 'Entity profiles' }, entity],
      [{ channel: 'param', title: "Unverified memory (the model's own recall, NOT evidence; cite a P id only for a claim taken from it)" }, param],
      [{ channel: 'web', title: 'Web' }, web],
    ];
    const blocks = answers.filter(([, a]) => a.items.length).map(([b, a]) => ({ ...b, lines: a.items.map(toLine) }));
    await ctx.trace.markSelected(blocks.flatMap((b) => b.lines.map((l) => l.id)));
    const notes = answers.flatMap(([b, a]) => (a.note ? [`${b.channel}: ${a.note}`] : []));
    return { frame, blocks, notes };
  });
  return { ...context, alongside: (await (besides ?? alongside?.(context.frame))) as A };
}
