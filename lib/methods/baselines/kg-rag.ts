import { defineMethod } from '../types';
import { toMethodAnswer } from './answer';
import './offline';
import { KgRagParamsSchema } from './params';
import { answerOnce } from './stages/answer';
import { gatherContext } from './stages/context';
import { kgNeighbourhood } from './stages/neighbourhood';
import { ANSWER_SET_TITLE, kgRagTemplate, OPTION_TESTS_TITLE, PAIR_EDGES_TITLE } from './templates';

/**
 * Naive KG-RAG baseline (METHODS.md §1, standing in for the papers' KG/Doc RAG
 * baselines): link the question's entities, take their 1-hop KG
 * neighbourhood, rank it, and answer from the top K triples plus the context blocks.
 */
export const kgRag = defineMethod({
  id: 'kg-rag',
  name: 'KG-RAG',
  source: 'Baseline: retrieval from the 1-hop KG neighbourhood',
  description:
    "Links the question's entities, reads their 1-hop KG neighbourhood, ranks it (lexical match + entities joined) and answers from the top 20 triples and the enabled context blocks.",
  params: KgRagParamsSchema,
  async run(ctx) {
    // The neighbourhood reads only the linked question: retrieved while the context's recall call is in flight.
    const context = await gatherContext(ctx, 'kg-rag', (frame) => kgNeighbourhood(ctx, frame));
    const neighbourhood = context.alongside;
    const kgBlock = [
      ...(neighbourhood.answerSet.length ? [{ channel: 'aids' as const, title: ANSWER_SET_TITLE, lines: neighbourhood.answerSet }] : []),
      ...(neighbourhood.pairs.length ? [{ channel: 'kg' as const, title: PAIR_EDGES_TITLE, lines: neighbourhood.pairs }] : []),
      ...(neighbourhood.lines.length ? [{ channel: 'kg' as const, title: neighbourhood.title, lines: neighbourhood.lines }] : []),
      ...(neighbourhood.optionTests.length ? [{ channel: 'aids' as const, title: OPTION_TESTS_TITLE, lines: neighbourhood.optionTests }] : []),
    ];
    const blocks = [...kgBlock, ...context.blocks];
    const solution = await answerOnce(ctx, 'kg-rag', kgRagTemplate, context.frame, blocks);
    return toMethodAnswer(
      solution,
      blocks.flatMap((b) => b.lines),
      { notes: [...neighbourhood.notes, ...context.notes] },
    );
  },
});
