import { kgStats } from '@/lib/kg';
import type { HealthResponse } from '@/lib/api/kg-types';
import { defineRoute, json } from '@/lib/api/route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/health → {ok, db, kg: {nodes, edges, source}}. 200 when the database
 * answers, 503 with db: "down" when it does not (the error itself goes to the log).
 */
export const GET = defineRoute({ public: true }, async () => {
  try {
    const stats = await kgStats();
    const body: HealthResponse = {
      ok: true,
      db: 'up',
      kg: { nodes: stats.nodes, edges: stats.edges, source: stats.lastImport?.source ?? null },
    };
    return json(200, body, { 'cache-control': 'no-store' });
  } catch (error) {
    console.error('[health] database check failed:', error instanceof Error ? error.message : error);
    const body: HealthResponse = { ok: false, db: 'down', kg: null };
    return json(503, body, { 'cache-control': 'no-store' });
  }
});
