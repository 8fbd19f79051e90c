import { defineRoute } from '@/lib/api/route';
import { EvalShareParams, MatrixQuery } from '@/lib/api/eval-schemas';
import { getMatrixPage } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** GET /api/eval/share/{shareId}/matrix?offset=&limit= — the matrix behind a share link. */
export const GET = defineRoute({ public: true, params: EvalShareParams, query: MatrixQuery }, async ({ params, query }) =>
  getMatrixPage({ shareId: params.shareId }, query),
);
