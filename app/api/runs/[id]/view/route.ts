import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { getRunView } from '@/lib/runs/view';
import { runResponse } from '@/lib/runs/snapshot';

export const dynamic = 'force-dynamic';

/** GET /api/runs/{id}/view — the run page's data: trace outline, evidence, answer, cost (step details load per step). */
export const GET = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64) }) }, async ({ params, request }) =>
  runResponse(request, 'view', { id: params.id }, () => getRunView({ id: params.id })),
);
