import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { ShareParams } from '@/lib/api/share';
import { getSharedStepDetail } from '@/lib/runs/share';

export const dynamic = 'force-dynamic';

/** GET /api/runs/share/{shareId}/steps/{stepId} — one step of a shared run. */
export const GET = defineRoute({ public: true, params: ShareParams.extend({ stepId: z.string().min(1).max(64) }) }, async ({ params }) =>
  getSharedStepDetail(params.shareId, params.stepId),
);
