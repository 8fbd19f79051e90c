import { defineMethod } from '../types';
import { toMethodAnswer } from './answer';
import './offline';
import { CotParamsSchema } from './params';
import { answerOnce } from './stages/answer';
import { gatherContext } from './stages/context';
import { cotTemplate } from './templates';

/** Chain-of-thought baseline (METHODS.md §1): as `direct`, with step-by-step reasoning written before the answer. */
export const cot = defineMethod({
  id: 'cot',
  name: 'Chain of thought',
  source: 'Baseline: chain-of-thought prompting',
  description: 'One answer call on the question and the enabled context blocks, reasoning step by step before answering. No KG triples.',
  params: CotParamsSchema,
  async run(ctx) {
    const context = await gatherContext(ctx, 'cot');
    const { reasoning, ...solution } = await answerOnce(ctx, 'cot', cotTemplate, context.frame, context.blocks);
    return toMethodAnswer(
      solution,
      context.blocks.flatMap((b) => b.lines),
      { reasoning, notes: context.notes },
    );
  },
});
