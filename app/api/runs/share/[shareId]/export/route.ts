import { defineRoute } from '@/lib/api/route';
import { downloadResponse } from '@/lib/api/download';
import { ShareParams } from '@/lib/api/share';
import { exportSharedRun } from '@/lib/runs/share';

export const dynamic = 'force-dynamic';

/** GET /api/runs/share/{shareId}/export — the shared run as a JSON download, credentials removed, no private id. */
export const GET = defineRoute({ public: true, params: ShareParams }, async ({ params }) =>
  downloadResponse({
    filename: `hopscope-run-${params.shareId}.json`,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify(await exportSharedRun(params.shareId), null, 2),
  }),
);
