import { defineMethod } from '../types';
import { toMethodAnswer } from './answer';
import './offline';
import { DirectParamsSchema } from './params';
import { answerOnce } from './stages/answer';
import { gatherContext } from './stages/context';
import { directTemplate } from './templates';

/** Direct (IO) baseline (METHODS.md §1): one answer call on the question and the enabled context blocks. */
export const direct = defineMethod({
  id: 'direct',
  name: 'Direct',
  source: 'Baseline: one-shot generation (X-R2’s “direct”)',
  description:
    'One answer call: the question plus the context blocks of the enabled channels (documents, entity profiles, parametric recall, web). No KG triples.',
  params: DirectParamsSchema,
  async run(ctx) {
    const context = await gatherContext(ctx, 'direct');
    const solution = await answerOnce(ctx, 'direct', directTemplate, context.frame, context.blocks);
    return toMethodAnswer(
      solution,
      context.blocks.flatMap((b) => b.lines),
      { notes: context.notes },
    );
  },
});
