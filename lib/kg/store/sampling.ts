import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';

/**
 * Seeded draws from the loaded graph for benchmarks and generated sets: a seeded
 * hash (md5(id || seed)) orders the rows, so the same graph and seed give the same draw.
 */

const Id = z.object({ id: z.string() });
const NamedNode = z.object({ id: z.string(), name: z.string() });
const NodeMetaedge = z.object({ node_id: z.string(), metaedge: z.string() });
const EdgeWords = z.object({ source: z.string(), verb: z.string(), target_kind: z.string() });

/** The n nodes of highest degree (of one kind when given), ties by id. */
export async function topDegreeNodeIds(n: number, kind?: string): Promise<string[]> {
  const rows = await queryRows(getPool(), Id, `select id from nodes where ($1::text is null or kind = $1) order by degree desc, id limit $2`, [
    kind ?? null,
    n,
  ]);
  return rows.map((r) => r.id);
}

/** n connected nodes (of one kind when given) in the seed's order. */
export function seededNodes(seed: string, n: number, kind?: string): Promise<{ id: string; name: string }[]> {
  return queryRows(getPool(), NamedNode, `select id, name from nodes where degree > 0 and ($1::text is null or kind = $1) order by md5(id || $2) limit $3`, [
    kind ?? null,
    seed,
    n,
  ]);
}

/** Each node's metaedge of most edges (ties by name). */
export async function topMetaedges(ids: string[]): Promise<Map<string, string>> {
  const rows = await queryRows(
    getPool(),
    NodeMetaedge,
    `select distinct on (node_id) node_id, metaedge from node_degrees where node_id = any($1) order by node_id, count desc, metaedge`,
    [ids],
  );
  return new Map(rows.map((r) => [r.node_id, r.metaedge]));
}

/** n edges in the seed's order: the source's name, the metaedge's verb and target kind. */
export async function seededEdges(seed: string, n: number): Promise<{ source: string; verb: string; targetKind: string }[]> {
  const rows = await queryRows(
    getPool(),
    EdgeWords,
    `select s.name source, m.verb, m.target_kind from edges e join nodes s on s.id = e.source_id join metaedges m on m.abbr = e.metaedge
      order by md5(e.id::text || $1) limit $2`,
    [seed, n],
  );
  return rows.map((r) => ({ source: r.source, verb: r.verb, targetKind: r.target_kind }));
}
