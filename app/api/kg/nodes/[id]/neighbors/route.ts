import { neighbors } from '@/lib/kg';
import { NeighborsQuerySchema, NodeParamsSchema } from '@/lib/api/kg-schemas';
import { defineRoute } from '@/lib/api/route';

/** GET /api/kg/nodes/:id/neighbors?metaedges=&direction=&neighborKinds=&limit=&offset=&order=degree|id|diverse → {total, edges}. */
export const GET = defineRoute({ params: NodeParamsSchema, query: NeighborsQuerySchema }, async ({ params, query }) =>
  neighbors(params.id, {
    metaedges: query.metaedges.length ? query.metaedges : undefined,
    direction: query.direction,
    neighborKinds: query.neighborKinds.length ? query.neighborKinds : undefined,
    limit: query.limit,
    offset: query.offset,
    order: query.order,
  }),
);
