import { ownerOf } from '@/lib/auth/access';
import { z } from 'zod';
import { defineRoute, json, readJsonBody } from '@/lib/api/route';
import { createEvalJob, listEvalJobs } from '@/lib/eval/jobs';

export const dynamic = 'force-dynamic';

/** POST /api/eval — start an evaluation (set × methods × switch grid); body validated by EvalJobRequestSchema. */
export const POST = defineRoute({}, async ({ request, viewer }) => json(201, await createEvalJob(await readJsonBody(request), { ownerId: ownerOf(viewer) })));

/** GET /api/eval?limit= — the most recent evaluations with their progress. */
export const GET = defineRoute({ query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }) }, async ({ query, viewer }) => ({
  items: await listEvalJobs(query.limit, viewer),
}));
