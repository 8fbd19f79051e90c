import { z } from 'zod';
import { defineRoute, readJsonBody } from '@/lib/api/route';
import { verifyRun } from '@/lib/runs/verify';

export const dynamic = 'force-dynamic';

const VerifyBodySchema = z.object({ alpha: z.number().min(0).max(100).optional() }).strict();

/** POST /api/runs/{id}/verify — K2V checklist verification of a finished run, stored as its next versioned verification (the run is unchanged). */
export const POST = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64) }) }, async ({ params, request }) => {
  const body = VerifyBodySchema.parse(await readJsonBody(request, { optional: true }));
  return verifyRun(params.id, { alpha: body.alpha });
});
