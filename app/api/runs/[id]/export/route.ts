import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { exportRun } from '@/lib/runs/export';

export const dynamic = 'force-dynamic';

/** GET /api/runs/{id}/export — the frozen run as a JSON download, credentials removed. */
export const GET = defineRoute({ owns: 'run', params: z.object({ id: z.string().min(1).max(64) }) }, async ({ params }) => {
  const body = await exportRun({ id: params.id });
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="hopscope-run-${params.id.replace(/[^A-Za-z0-9_-]/g, '')}.json"`,
    },
  });
});
