import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { getRunView } from '@/lib/runs/view';

export const dynamic = 'force-dynamic';

/** GET /api/runs/{id}/view — the run page's data: trace outline, evidence, answer, cost (step details load per step). */
export const GET = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64) }) }, async ({ params }) => getRunView({ id: params.id }));
