import { answerSetOf } from '@/lib/trace/evidence-data';
import type { AnswerSet } from '../graph';
import type { MethodContext } from '../../types';
import type { QuestionFrame } from '../frame';
import type { BioWeaveParams } from '../params';

/**
 * Aid `answer-set` (docs/aids.md; none with the aids off): the question's
 * complete answer set along each anchor's whole chain, read once, beside
 * every round's refined graph, so a count, a list or a meeting of chains is
 * read whole. Not part of BioWeave: its typed expansion reaches each node once,
 * so a chain through a node reached earlier ("compounds in the classes of the
 * drugs for X", the drugs among them) loses members.
 */
export async function readAnswerSet(ctx: MethodContext<BioWeaveParams>, frame: QuestionFrame): Promise<AnswerSet[]> {
  const records = await ctx.channels.aids.questionAnswerSet(null, frame);
  return records
    .filter((r) => r.kind === 'set')
    .map((r) => {
      const data = answerSetOf(r);
      const anchors = (data.constraints ?? []).map((c) => c.anchor);
      return { id: r.id, count: data.count, members: data.members, anchors, kind: data.kind ?? null, triples: data.triples ?? [] };
    });
}
