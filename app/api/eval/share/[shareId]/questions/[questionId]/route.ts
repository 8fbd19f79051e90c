import { defineRoute } from '@/lib/api/route';
import { EvalQuestionParams, EvalShareParams } from '@/lib/api/eval-schemas';
import { getQuestionDrilldown } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** GET /api/eval/share/{shareId}/questions/{questionId} — one question behind a share link. */
export const GET = defineRoute({ public: true, params: EvalShareParams.extend(EvalQuestionParams.shape) }, async ({ params }) =>
  getQuestionDrilldown({ shareId: params.shareId }, params.questionId),
);
