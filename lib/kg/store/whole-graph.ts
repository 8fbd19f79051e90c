import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';

/**
 * Whole-table reads of the loaded graph for offline generators (the corpus fact sheets):
 * every node, every degree, one alias source, and a node's neighbours by metaedge.
 */

const NamedNode = z.object({ id: z.string(), name: z.string(), kind: z.string() });
const Degree = z.object({ nodeId: z.string(), metaedge: z.string(), direction: z.string(), count: z.number() });
const Alias = z.object({ nodeId: z.string(), alias: z.string() });
const Neighbour = z.object({ id: z.string() });

/** Every node, by id. */
export function allNodes(): Promise<z.output<typeof NamedNode>[]> {
  return queryRows(getPool(), NamedNode, 'select id, name, kind from nodes order by id');
}

/** Every node's edge count per metaedge and direction. */
export function allNodeDegrees(): Promise<z.output<typeof Degree>[]> {
  return queryRows(getPool(), Degree, 'select node_id "nodeId", metaedge, direction, count from node_degrees');
}

/** The aliases of one source (e.g. 'ncbi-full-name'), by node and then in stored order. */
export function aliasesOfSource(source: string): Promise<z.output<typeof Alias>[]> {
  return queryRows(getPool(), Alias, 'select node_id "nodeId", alias from node_aliases where source = $1 order by node_id, id', [source]);
}

const NEIGHBOURS = {
  out: 'select target_id id from edges where source_id = $1 and metaedge = $2',
  in: 'select source_id id from edges where target_id = $1 and metaedge = $2',
  both: 'select target_id id from edges where source_id = $1 and metaedge = $2 union select source_id from edges where target_id = $1 and metaedge = $2',
} as const;

/** The ids one edge of `metaedge` away from `id` (out: `id` is the source; both: either end). */
export async function neighbourIds(id: string, metaedge: string, direction: keyof typeof NEIGHBOURS): Promise<string[]> {
  return (await queryRows(getPool(), Neighbour, NEIGHBOURS[direction], [id, metaedge])).map((r) => r.id);
}
