import { z } from 'zod';
import { defineRoute } from '@/lib/api/route';
import { getDocument } from '@/lib/corpus/documents';

export const dynamic = 'force-dynamic';

/** GET /api/documents/{id} — a document's text and passage spans (for highlighting a cited span). */
export const GET = defineRoute({ params: z.object({ id: z.string().min(1).max(200) }) }, async ({ params, viewer }) => getDocument(params.id, viewer));
