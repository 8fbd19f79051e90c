import { nodeProfile } from '@/lib/kg';
import { NodeParamsSchema } from '@/lib/api/kg-schemas';
import { HttpError } from '@/lib/api/errors';
import { defineRoute } from '@/lib/api/route';

/** GET /api/kg/nodes/:id (id URL-encoded) → the node's profile, or 404 {error}. */
export const GET = defineRoute({ params: NodeParamsSchema }, async ({ params }) => {
  const profile = await nodeProfile(params.id);
  if (!profile) throw new HttpError(404, `No KG node with id ${params.id}`);
  return profile;
});
