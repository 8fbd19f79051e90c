import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { getRunRecord } from '@/lib/runs/read';
import { runResponse } from '@/lib/runs/snapshot';

export const dynamic = 'force-dynamic';

/** GET /api/runs/{id} — the whole run: config, answer, steps, evidence, model calls, scores, cost. */
export const GET = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64) }) }, async ({ params, request }) =>
  runResponse(request, 'record', { id: params.id }, () => getRunRecord({ id: params.id })),
);
