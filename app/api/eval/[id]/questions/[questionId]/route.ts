import { defineRoute } from '@/lib/api/route';
import { EvalIdParams, EvalQuestionParams } from '@/lib/api/eval-schemas';
import { getQuestionDrilldown } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** GET /api/eval/{id}/questions/{questionId} — one question of the evaluation and every run of it. */
export const GET = defineRoute({ owns: 'eval', params: EvalIdParams.extend(EvalQuestionParams.shape) }, async ({ params }) =>
  getQuestionDrilldown({ id: params.id }, params.questionId),
);
