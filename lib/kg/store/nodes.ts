import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import type { KgNode } from '../types';
import { normaliseName } from '../normalise';
import { withTrigramThreshold } from './trigram';

/** Node lookups, typeahead search and profiles: small indexed SQL reads that need no graph snapshot. */

const NodeSchema = z.object({ id: z.string(), kind: z.string(), name: z.string() });

/** The nodes that exist among `ids`, in the order asked. */
export async function getNodes(ids: string[]): Promise<KgNode[]> {
  if (!ids.length) return [];
  const rows = await queryRows(getPool(), NodeSchema, 'select id, kind, name from nodes where id = any($1::text[])', [ids]);
  const byId = new Map(rows.map((n) => [n.id, n]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Trigram similarity below which the typeahead does not offer a near-miss (see withTrigramThreshold). */
const SEARCH_MIN_SIMILARITY = 0.4;

/** Why a search hit matched: which field of the node, how, and the text that matched. */
const SearchMatchSchema = z.object({
  /** `id`: the node id or its source id ("7157", "DOID:2377"); `symbol`: a gene symbol; `alias`: any other alias. */
  field: z.enum(['id', 'name', 'symbol', 'alias']),
  how: z.enum(['exact', 'prefix', 'similar']),
  /** The name, alias or id as stored. */
  text: z.string(),
  /** Where an alias comes from ("ncbi-synonym", "do-name"); null for names and ids. */
  source: z.string().nullable(),
});
export type SearchMatch = z.infer<typeof SearchMatchSchema>;
const SearchRowsSchema = z.array(NodeSchema.extend(SearchMatchSchema.shape));

export type SearchHit = KgNode & { match: SearchMatch };

/** A query that may be an id: no spaces and a digit in it ("7157", "DOID:2377", "Gene::7157"). */
const ID_LIKE = /^[^\s]*\d[^\s]*$/;

/**
 * Typeahead: ids, exact names, then exact aliases, then names and (from three
 * characters) aliases starting with the query, then trigram-similar names;
 * within a tier by similarity, then degree (the node people most likely mean).
 * Each hit says why it matched (the field, how, and the matching text), so a
 * suggestion found through an alias or a symbol can show it.
 */
export async function searchNodes(q: string, opts: { limit?: number; kinds?: string[] } = {}): Promise<SearchHit[]> {
  const key = normaliseName(q);
  const raw = q.trim();
  if (!key) return [];
  return withTrigramThreshold(SEARCH_MIN_SIMILARITY, async (client) => {
    const { rows } = await client.query({
      name: 'kg-search-nodes-why',
      text: `with hits as (
               select n.id, 5 as tier, 'id' as field, 'exact' as how, n.id as text, null::text as source, 1.0::real as sim
                 from nodes n where $4::boolean and (lower(n.id) = lower($5) or lower(split_part(n.id, '::', 2)) = lower($5))
               union all
               select n.id, 4, 'name', 'exact', n.name, null, 1.0 from nodes n where n.normalised = $1
               union all
               select a.node_id, 3, case when a.source like '%symbol%' then 'symbol' else 'alias' end, 'exact', a.alias, a.source, 1.0
                 from node_aliases a where a.normalised = $1
               union all
               (select n.id, 2, 'name', 'prefix', n.name, null, similarity(n.normalised, $1) from nodes n
                 where n.normalised like $1 || '%' and ($2::text[] is null or n.kind = any($2))
                 order by n.degree desc limit 100)
               union all
               (select a.node_id, 1, case when a.source like '%symbol%' then 'symbol' else 'alias' end, 'prefix', a.alias, a.source, similarity(a.normalised, $1)
                 from node_aliases a where length($1) >= 3 and a.normalised like $1 || '%' limit 100)
               union all
               (select n.id, 0, 'name', 'similar', n.name, null, similarity(n.normalised, $1) from nodes n
                 where length($1) >= 3 and n.normalised % $1 and ($2::text[] is null or n.kind = any($2))
                 order by similarity(n.normalised, $1) desc limit 100)
             ), best as (
               select distinct on (id) id, tier, field, how, text, source, sim from hits
                order by id, tier desc, sim desc, (field = 'symbol') desc, text
             )
             select n.id, n.kind, n.name, b.field, b.how, b.text, b.source
               from best b join nodes n on n.id = b.id
              where $2::text[] is null or n.kind = any($2)
              order by b.tier desc, b.sim desc, n.degree desc, n.id
              limit $3`,
      values: [key, opts.kinds?.length ? opts.kinds : null, Math.max(1, opts.limit ?? 10), ID_LIKE.test(raw), raw],
    });
    return SearchRowsSchema.parse(rows).map(({ id, kind, name, field, how, text, source }) => ({ id, kind, name, match: { field, how, text, source } }));
  });
}

/** Edge counts per metaedge and side (from node_degrees), largest first. */
const DegreeByMetaedgeSchema = z.array(
  z.object({ metaedge: z.string(), direction: z.enum(['out', 'in']), count: z.number(), description: z.string(), neighborKind: z.string().nullable() }),
);

/** A node's DegreeByMetaedgeSchema column ("degreeByMetaedge"), for a query over `nodes n`. */
const DEGREE_BY_METAEDGE_SQL = `coalesce((select json_agg(json_build_object('metaedge', d.metaedge, 'direction', d.direction, 'count', d.count,
                                                        'description', coalesce(m.description, d.metaedge),
                                                        'neighborKind', case d.direction when 'out' then m.target_kind else m.source_kind end)
                                      order by d.count desc, d.metaedge, d.direction)
                        from node_degrees d left join metaedges m on m.abbr = d.metaedge where d.node_id = n.id), '[]') "degreeByMetaedge"`;

const NodeProfileRowSchema = NodeSchema.extend({
  source: z.string().nullable(),
  description: z.string().nullable(),
  degree: z.number(),
  aliases: z.array(z.object({ alias: z.string(), source: z.string() })),
  profiles: z.array(z.object({ source: z.string(), text: z.string() })),
  degreeByMetaedge: DegreeByMetaedgeSchema,
});
type NodeProfileRow = z.infer<typeof NodeProfileRowSchema>;

export interface NodeProfile extends Pick<NodeProfileRow, 'aliases' | 'profiles' | 'degreeByMetaedge'> {
  node: Omit<NodeProfileRow, 'aliases' | 'profiles' | 'degreeByMetaedge'>;
}

/** Everything the entity page and the entity channel show about one node; null when there is no such node. */
export async function nodeProfile(id: string): Promise<NodeProfile | null> {
  return (await nodeProfiles([id])).get(id) ?? null;
}

/** The profiles of several nodes in one query, by id (ids with no node are left out). */
export async function nodeProfiles(ids: string[]): Promise<Map<string, NodeProfile>> {
  if (!ids.length) return new Map();
  const rows = await queryRows(
    getPool(),
    NodeProfileRowSchema,
    `select n.id, n.kind, n.name, n.source, n.description, n.degree,
            coalesce((select json_agg(json_build_object('alias', a.alias, 'source', a.source) order by a.source, a.alias)
                        from node_aliases a where a.node_id = n.id), '[]') aliases,
            coalesce((select json_agg(json_build_object('source', p.source, 'text', p.text) order by p.source, p.id)
                        from entity_profiles p where p.node_id = n.id), '[]') profiles,
            ${DEGREE_BY_METAEDGE_SQL}
       from nodes n where n.id = any($1::text[])`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map(({ aliases, profiles, degreeByMetaedge, ...node }) => [node.id, { node, aliases, profiles, degreeByMetaedge }]));
}

const NodeDegreesRowSchema = z.object({ id: z.string(), degreeByMetaedge: DegreeByMetaedgeSchema });

/**
 * The profiles' `degreeByMetaedge` alone, by id (ids with no node are left out): what a list cut from a node's edges is
 * out of. A hub's aliases and profile texts, which a profile read also sends and parses, are not read.
 */
export async function nodeDegrees(ids: string[]): Promise<Map<string, NodeProfile['degreeByMetaedge']>> {
  if (!ids.length) return new Map();
  const rows = await queryRows(getPool(), NodeDegreesRowSchema, `select n.id, ${DEGREE_BY_METAEDGE_SQL} from nodes n where n.id = any($1::text[])`, [
    [...new Set(ids)],
  ]);
  return new Map(rows.map((r) => [r.id, r.degreeByMetaedge]));
}
