import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { getStepDetail } from '@/lib/runs/view';

export const dynamic = 'force-dynamic';

/** GET /api/runs/{id}/steps/{stepId} — one step's input, output and model calls (rendered prompt, raw and parsed output, tokens, latency). */
export const GET = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64), stepId: z.string().min(1).max(64) }) }, async ({ params }) =>
  getStepDetail(params.id, params.stepId),
);
