import { defineRoute } from '@/lib/api/route';
import { EvalShareParams, ExportQuery } from '@/lib/api/eval-schemas';
import { evalExport } from '@/lib/eval/jobs';
import { downloadResponse } from '@/lib/api/download';

export const dynamic = 'force-dynamic';

/** GET /api/eval/share/{shareId}/export?format=csv|json&table=items|scores — the exports behind a share link. */
export const GET = defineRoute({ public: true, params: EvalShareParams, query: ExportQuery }, async ({ params, query }) =>
  downloadResponse(await evalExport({ shareId: params.shareId }, query.format, query.table)),
);
