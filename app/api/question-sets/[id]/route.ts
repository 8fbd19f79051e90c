import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { questionChoices } from '@/lib/eval/question-picker';

export const dynamic = 'force-dynamic';

/** GET /api/question-sets/{id}?limit=&offset= — a page of a set's questions for the ask form. */
export const GET = defineRoute(
  {
    params: z.object({ id: z.string().min(1).max(64) }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), offset: z.coerce.number().int().min(0).default(0) }),
  },
  async ({ params, query, viewer }) => questionChoices(viewer, params.id, query),
);
