import { defineRoute } from '@/lib/api/route';
import { EvalIdParams, ExportQuery } from '@/lib/api/eval-schemas';
import { evalExport } from '@/lib/eval/jobs';
import { downloadResponse } from '@/lib/api/download';

export const dynamic = 'force-dynamic';

/** GET /api/eval/{id}/export?format=csv|json&table=items|scores — a download of the runs, the scores or everything. */
export const GET = defineRoute({ owns: 'eval', params: EvalIdParams, query: ExportQuery }, async ({ params, query }) =>
  downloadResponse(await evalExport({ id: params.id }, query.format, query.table)),
);
