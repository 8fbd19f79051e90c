import { defineRoute } from '@/lib/api/route';
import { EvalIdParams, MatrixQuery } from '@/lib/api/eval-schemas';
import { getMatrixPage } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** GET /api/eval/{id}/matrix?offset=&limit= — a page of the questions × configurations matrix with run ids. */
export const GET = defineRoute({ owns: 'eval', params: EvalIdParams, query: MatrixQuery }, async ({ params, query }) =>
  getMatrixPage({ id: params.id }, query),
);
