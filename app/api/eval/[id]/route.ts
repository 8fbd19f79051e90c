import { defineRoute } from '@/lib/api/route';
import { EvalIdParams } from '@/lib/api/eval-schemas';
import { getEvalJobView } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** GET /api/eval/{id} — the evaluation with live progress (done / total / errors / ETA) and its tables. */
export const GET = defineRoute({ owns: 'eval', params: EvalIdParams }, async ({ params }) => getEvalJobView({ id: params.id }));
