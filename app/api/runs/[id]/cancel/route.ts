import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { cancelRun } from '@/lib/runs/service';

export const dynamic = 'force-dynamic';

/** POST /api/runs/{id}/cancel — a queued or running run stops at its next step. */
export const POST = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64) }) }, async ({ params }) => cancelRun(params.id));
