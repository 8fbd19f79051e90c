import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import type { LinkMethod } from '../types';
import { withTrigramThreshold } from './trigram';

/** A node some normalised key matched, by name or alias. */
export interface LinkCandidate {
  key: string;
  id: string;
  kind: string;
  name: string;
  degree: number;
  matched: string;
  method: LinkMethod;
  score: number;
  /** The alias's source ("ncbi-full-name", "ncbi-synonym", …); null for a node name. */
  source: string | null;
}

const LinkCandidatesSchema: z.ZodType<LinkCandidate[]> = z.array(
  z.object({
    key: z.string(),
    id: z.string(),
    kind: z.string(),
    name: z.string(),
    degree: z.number(),
    matched: z.string(),
    method: z.enum(['exact', 'alias', 'fuzzy']),
    score: z.number(),
    source: z.string().nullable(),
  }),
);

/** The score of an alias hit: below an exact name, above any fuzzy match that is not near-identical. */
export const ALIAS_SCORE = 0.9;

// Aliases reach their node through a fenced lateral lookup ("offset 0" keeps the
// planner from flattening it): it overestimates trigram hits and would otherwise
// hash-join all 47k nodes, 20+ ms for a handful of alias rows.

export interface Scope {
  aliases: boolean;
  kinds?: readonly string[];
}

/** `aliasSources`: only aliases of these sources are matched fuzzily (with `aliases` on); all when absent. */
export type FuzzyScope = Scope & { minSimilarity: number; limit: number; aliasSources?: readonly string[] };

/** Exact hits on nodes.normalised and node_aliases.normalised for many keys in one query (btree lookups). */
export async function exactCandidates(keys: string[], scope: Scope): Promise<LinkCandidate[]> {
  if (!keys.length) return [];
  const { rows } = await getPool().query({
    // Named: prepared once per connection, since planning costs as much as running these lookups.
    name: 'kg-link-exact',
    text: `select n.normalised as key, n.id, n.kind, n.name, n.degree, n.name as matched, 'exact' as method, 1::float8 as score, null::text as source
       from nodes n
      where n.normalised = any($1::text[]) and ($2::text[] is null or n.kind = any($2))
     union all
     select a.normalised, n.id, n.kind, n.name, n.degree, a.alias, 'alias', $4::float8, a.source
       from node_aliases a cross join lateral (select * from nodes n where n.id = a.node_id offset 0) n
      where $3 and a.normalised = any($1::text[]) and ($2::text[] is null or n.kind = any($2))`,
    values: [keys, scope.kinds?.length ? scope.kinds : null, scope.aliases, ALIAS_SCORE],
  });
  return LinkCandidatesSchema.parse(rows);
}

/**
 * Trigram neighbours of each key among names (and aliases), best first, up to
 * `limit` per key, in one query; the index prunes at `minSimilarity` (see withTrigramThreshold).
 */
export async function fuzzyCandidates(keys: string[], scope: FuzzyScope): Promise<LinkCandidate[]> {
  if (!keys.length) return [];
  return withTrigramThreshold(scope.minSimilarity, async (client) => {
    const { rows } = await client.query({
      name: 'kg-link-fuzzy',
      text: `select k.key, m.* from unnest($1::text[]) as k(key) cross join lateral (
               select * from (
                 select n.id, n.kind, n.name, n.degree, n.name as matched, 'fuzzy' as method, similarity(n.normalised, k.key)::float8 as score, null::text as source
                   from nodes n
                  where n.normalised % k.key and ($2::text[] is null or n.kind = any($2))
                 union all
                 select n.id, n.kind, n.name, n.degree, a.alias, 'fuzzy', similarity(a.normalised, k.key)::float8, a.source
                   from node_aliases a cross join lateral (select * from nodes n where n.id = a.node_id offset 0) n
                  where $3 and a.normalised % k.key and ($2::text[] is null or n.kind = any($2)) and ($6::text[] is null or a.source = any($6))
               ) c
               where c.score >= $4
               order by c.score desc, c.degree desc, c.id
               limit $5
             ) m`,
      values: [
        keys,
        scope.kinds?.length ? scope.kinds : null,
        scope.aliases,
        scope.minSimilarity,
        scope.limit,
        scope.aliasSources?.length ? scope.aliasSources : null,
      ],
    });
    return LinkCandidatesSchema.parse(rows);
  });
}
