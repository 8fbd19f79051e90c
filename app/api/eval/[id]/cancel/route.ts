import { defineRoute } from '@/lib/api/route';
import { EvalIdParams } from '@/lib/api/eval-schemas';
import { cancelEvalJob } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** POST /api/eval/{id}/cancel — stop an unfinished evaluation; finished runs keep their outcome. */
export const POST = defineRoute({ owns: 'eval', params: EvalIdParams }, async ({ params }) => cancelEvalJob(params.id));
