import { defineRoute } from '@/lib/api/route';
import { ShareParams } from '@/lib/api/share';
import { getSharedRunView } from '@/lib/runs/share';
import { runResponse } from '@/lib/runs/snapshot';

export const dynamic = 'force-dynamic';

/** GET /api/runs/share/{shareId}/view — the permalink's data: the run view, named by share ids only. */
export const GET = defineRoute({ public: true, params: ShareParams }, async ({ params, request }) =>
  runResponse(request, 'shared-view', { shareId: params.shareId }, () => getSharedRunView(params.shareId)),
);
