import { searchNodes } from '@/lib/kg';
import { SearchQuerySchema } from '@/lib/api/kg-schemas';
import type { SearchResponse } from '@/lib/api/kg-types';
import { defineRoute } from '@/lib/api/route';

/** GET /api/kg/search?q=&kinds=&limit= → {items: KgNode[]} (typeahead). */
export const GET = defineRoute({ query: SearchQuerySchema }, async ({ query }): Promise<SearchResponse> => {
  const items = await searchNodes(query.q, { limit: query.limit, kinds: query.kinds.length ? query.kinds : undefined });
  return { items };
});
