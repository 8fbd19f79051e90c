import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { ownerFilter } from '@/lib/auth/access';
import { readDocument } from '@/lib/corpus/store';

export const dynamic = 'force-dynamic';

/**
 * GET /api/documents/{id} — a document's text and passage spans (for highlighting a cited span):
 * the corpus's, or one attached to the viewer's runs or brought by their sets (lib/auth/access).
 */
export const GET = defineRoute({ params: z.object({ id: z.string().min(1).max(200) }) }, async ({ params, viewer }) =>
  readDocument(params.id, ownerFilter(viewer)),
);
