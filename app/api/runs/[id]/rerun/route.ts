import { z } from 'zod';
import { defineRoute, json, readJsonBody } from '@/lib/api/route';
import { rerun } from '@/lib/runs/service';
import { ownerOf } from '@/lib/auth/access';

export const dynamic = 'force-dynamic';

/** POST /api/runs/{id}/rerun — body {switches?, params?, kgShuffle?, method?}; the new run records its parent and the diff. */
export const POST = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64) }) }, async ({ params, request, viewer }) => {
  const body = await readJsonBody(request);
  return json(201, await rerun(params.id, body, { ownerId: ownerOf(viewer) }));
});
