import { defineRoute } from '@/lib/api/route';
import { EvalShareParams } from '@/lib/api/eval-schemas';
import { getEvalJobView } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** GET /api/eval/share/{shareId} — the evaluation behind a share link, read-only (no job id, no controls). */
export const GET = defineRoute({ public: true, params: EvalShareParams }, async ({ params }) => getEvalJobView({ shareId: params.shareId }));
