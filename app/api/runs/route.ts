import { z } from 'zod';
import { defineRoute, json, readJsonBody } from '@/lib/api/route';
import { createRun } from '@/lib/runs/service';
import { listRecentRuns } from '@/lib/runs/read';
import { ownerOf } from '@/lib/auth/access';

export const dynamic = 'force-dynamic';

/** POST /api/runs — start a run; body validated by RunRequestSchema in the service. */
export const POST = defineRoute({}, async ({ request, viewer }) => {
  const body = await readJsonBody(request);
  return json(201, await createRun(body, { ownerId: ownerOf(viewer) }));
});

/** GET /api/runs?limit= — the most recent runs. */
export const GET = defineRoute({ query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }) }, async ({ query, viewer }) => ({
  items: await listRecentRuns(query.limit, { viewer }),
}));
