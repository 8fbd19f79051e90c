import { defineRoute } from '@/lib/api/route';
import { describeMethods } from '@/lib/methods/descriptors';

export const dynamic = 'force-dynamic';

/** GET /api/methods — the registered methods with their run parameters and the paper defaults. */
export const GET = defineRoute({}, async () => ({ items: describeMethods() }));
