import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRow, queryRows } from '@/lib/db/rows';
import { IMPORTS_SIGNATURE_SQL } from '../store';

/** Alias source of a gene's full name (NCBI gene_info's nomenclature name, or its description). */
export const FULL_NAME_SOURCE = 'ncbi-full-name';
/** Alias sources of WordNet's everyday names (lib/kg/import/wordnet.ts): a synonym of a node's name, and a narrower lay name read as its one broader disease ("hay fever"). */
export const WORDNET_SYNONYM = 'wordnet-synonym';
export const WORDNET_NARROWER = 'wordnet-narrower';
/** Alias source of general words for the one disease below them in WordNet ("clinical depression" → endogenous depression): a `narrower` reading, never the link. */
export const WORDNET_BROADER = 'wordnet-broader';
/** Alias source of a name with its adjective read as the noun it pertains to or comes from ("gestational diabetes" → "pregnancy diabetes", "autistic disorder" → "autism"). */
export const WORDNET_DERIVED = 'wordnet-derived';
/** Alias source of a name in the other side's spelling ("esophageal hemorrhage" for Oesophageal haemorrhage; lib/kg/import/wordnet-names.ts). */
export const SPELLING_VARIANT = 'spelling-variant';
/** Alias source of a condition's name with one word in another word of its WordNet state synset ("gastrointestinal bleeding"). */
export const WORDNET_WORD_SYNONYM = 'wordnet-word-synonym';
/** Alias source of a condition's short WordNet definition, read as a name ("loss of hair", "hair loss" → Alopecia). */
export const WORDNET_GLOSS = 'wordnet-gloss';
/** Alias source of a narrower Disease Ontology term read as the graph's disease it is a kind of ("prostate carcinoma" → prostate cancer; lib/kg/import/disease-ontology.ts). */
export const DO_NARROWER = 'do-narrower';
/** Alias source of a gene's other designations ("apoptosis regulator BAX"). */
export const DESIGNATION_SOURCE = 'ncbi-other-designation';

/** A node with one of its names (its own, or an alias and the alias's source). */
const NameRowSchema = z.object({
  id: z.string(),
  kind: z.string(),
  name: z.string(),
  matched: z.string(),
  normalised: z.string(),
  degree: z.number(),
  source: z.string().nullable(),
});
export type NameRow = z.output<typeof NameRowSchema>;

/** The node kinds the loaded graph holds. */
export async function readKinds(): Promise<string[]> {
  return (await queryRows(getPool(), z.object({ kind: z.string() }), 'select distinct kind from nodes')).map((r) => r.kind);
}

/** Every node of these kinds, by its own name. */
export async function readNodesOfKinds(kinds: string[]): Promise<NameRow[]> {
  return queryRows(
    getPool(),
    NameRowSchema,
    'select id, kind, name, name as matched, normalised, degree, null::text as source from nodes where kind = any($1::text[])',
    [kinds],
  );
}

/**
 * The names a misspelling may be read as ($2: `symbolKinds`, $3, $4: the full-name and designation sources):
 * node names of five characters or more but those of `symbolKinds` (gene symbols are never read fuzzily),
 * genes' full names, and their other designations of several words; `part` orders names before aliases.
 */
const SPELLING_NAMES = `select 0 part, id, kind, name, name as matched, normalised, degree, null::text as source from nodes where length(normalised) >= 5 and kind <> all($2::text[])
  union all
  select 1, n.id, n.kind, n.name, a.alias, a.normalised, n.degree, a.source
    from node_aliases a join nodes n on n.id = a.node_id
   where (a.source = $3 and length(a.normalised) >= 5) or (a.source = $4 and a.normalised like '% %' and length(a.normalised) >= 12)`;

/**
 * Node names and aliases matching any of these LIKE patterns (normalised names), but genes' full names and
 * designations: the names a span with initials inside may spell out ("% neoplasm" for "PNS neoplasm").
 */
export async function readNamesLike(patterns: string[]): Promise<NameRow[]> {
  return queryRows(
    getPool(),
    NameRowSchema,
    `select id, kind, name, name as matched, normalised, degree, null::text as source from nodes where normalised like any($1::text[])
     union all
     select n.id, n.kind, n.name, a.alias, a.normalised, n.degree, a.source
       from node_aliases a join nodes n on n.id = a.node_id
      where a.normalised like any($1::text[]) and a.source <> all($2::text[])`,
    [patterns, [FULL_NAME_SOURCE, DESIGNATION_SOURCE]],
  );
}

/** The normalised aliases of `source` per node, for these nodes. */
export async function readAliasesOf(ids: string[], source: string): Promise<Map<string, string[]>> {
  const rows = await queryRows(
    getPool(),
    z.object({ node_id: z.string(), normalised: z.string() }),
    `select node_id, normalised from node_aliases where source = $2 and node_id = any($1::text[])`,
    [ids, source],
  );
  const names = new Map<string, string[]>();
  for (const r of rows) names.set(r.node_id, [...(names.get(r.node_id) ?? []), r.normalised]);
  return names;
}

/** A stored spelling name (see writeSpellingNames): a name row with its place in the stored order and its buckets. */
const SpellingRowSchema = NameRowSchema.extend({
  seq: z.number(),
  head: z.string(),
  tail: z.string(),
  middle: z.string().nullable(),
  words: z.string().nullable(),
});
export type SpellingRow = z.output<typeof SpellingRowSchema>;

/**
 * The loaded knowledge's signature (what lib/kg/query/lookups.ts compares to forget its memory on an import),
 * after storing the spelling names for it if no process has yet: the names readSpellingNames reads, each with
 * its length-and-ends buckets and, for several words, its words in sorted order, in readSpellingNames's order.
 * The buckets are the SpellingIndex's (lib/kg/linking/spelling-index.ts): `endOf` letters (2 under nine
 * characters, else 3) of either end, and from nine characters the three middle letters (from `middleAt`,
 * length / 2 - 1 rounded down, counted from 0), keyed by the length. Names are normalised to a–z, 0–9 and spaces, so
 * SQL's lengths and "C" order are JavaScript's. One process stores them; the others wait for it and read them.
 */
export async function storeSpellingNames(symbolKinds: string[]): Promise<string> {
  const client = await getPool().connect();
  try {
    await client.query('begin');
    await client.query(`select pg_advisory_xact_lock(hashtext('spelling_names'))`);
    const { signature, stored } = (await queryRow(
      client,
      z.object({ signature: z.string(), stored: z.boolean() }),
      `with k as (${IMPORTS_SIGNATURE_SQL})
       select k.signature, exists (select 1 from spelling_names s where s.signature = k.signature) stored from k`,
    ))!;
    if (!stored) {
      await client.query('delete from spelling_names where signature <> $1', [signature]);
      await client.query(
        `insert into spelling_names (signature, seq, node_id, kind, name, matched, normalised, degree, source, head, tail, middle, words)
         select $1, row_number() over (order by x.part, x.id, x.matched), x.id, x.kind, x.name, x.matched, x.normalised, x.degree, x.source,
                length(x.normalised) || '<' || left(x.normalised, case when length(x.normalised) < 9 then 2 else 3 end),
                length(x.normalised) || '>' || right(x.normalised, case when length(x.normalised) < 9 then 2 else 3 end),
                case when length(x.normalised) >= 9 then length(x.normalised) || '=' || substr(x.normalised, length(x.normalised) / 2, 3) end,
                case when x.normalised like '% %' then (select string_agg(w, ' ' order by w collate "C") from regexp_split_to_table(x.normalised, ' ') w) end
           from (${SPELLING_NAMES}) x`,
        [signature, symbolKinds, FULL_NAME_SOURCE, DESIGNATION_SOURCE],
      );
    }
    await client.query('commit');
    return signature;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The stored spelling names (of `signature`) in any of these buckets or with these sorted words, in stored order. */
export async function readSpellingBuckets(signature: string, buckets: string[], words: string[]): Promise<SpellingRow[]> {
  return queryRows(
    getPool(),
    SpellingRowSchema,
    `select seq, node_id id, kind, name, matched, normalised, degree, source, head, tail, middle, words from spelling_names
      where signature = $1 and (head = any($2::text[]) or tail = any($2::text[]) or middle = any($2::text[]) or words = any($3::text[])) order by seq`,
    [signature, buckets, words],
  );
}

/** The stored spelling names' text columns readSpellingColumns reads, in its order. */
export const SPELLING_COLUMNS = ['node_id', 'kind', 'name', 'matched', 'normalised', 'source', 'head', 'tail', 'middle', 'words'] as const;

const SpellingColumnsSchema = z.object({
  count: z.number(),
  degrees: z.array(z.number()).nullable(),
  columns: z.array(z.string().nullable()).length(SPELLING_COLUMNS.length),
});
export type SpellingColumns = z.output<typeof SpellingColumnsSchema>;

/**
 * Every stored spelling name (of `signature`) as columns, in stored order (what readSpellingBuckets reads bucket by
 * bucket): each text column's values joined by `separator`, '' for null. One statement, a row of a few strings.
 */
export async function readSpellingColumns(signature: string, separator: string): Promise<SpellingColumns> {
  return (await queryRow(
    getPool(),
    SpellingColumnsSchema,
    `select count(*)::int count, array_agg(degree order by seq) degrees,
            array[${SPELLING_COLUMNS.map((c) => `string_agg(coalesce(${c}, ''), $2 order by seq)`).join(', ')}] columns
       from spelling_names where signature = $1`,
    [signature, separator],
  ))!;
}

/** Every node's and alias's names as columns (see NameTable): each column's values in ctid order joined by `separator`, or null for none. */
const NameColumnsSchema = z.object({
  count: z.number(),
  kinds: z.array(z.string()).nullable(),
  degrees: z.array(z.number()).nullable(),
  node_normalised: z.string().nullable(),
  node_id: z.string().nullable(),
  node_name: z.string().nullable(),
  alias_normalised: z.string().nullable(),
  alias_alias: z.string().nullable(),
  alias_source: z.string().nullable(),
  alias_node: z.string().nullable(),
});
export type NameColumns = z.output<typeof NameColumnsSchema>;

/** One statement, a row of a few strings (they parse far cheaper than 178k rows); one snapshot, so both tables agree. */
export async function readNameColumns(separator: string): Promise<NameColumns> {
  return (await queryRow(
    getPool(),
    NameColumnsSchema,
    `select n.*, a.* from
       (select count(*)::int count, string_agg(normalised, $1 order by ctid) node_normalised, string_agg(id, $1 order by ctid) node_id,
               string_agg(name, $1 order by ctid) node_name, array_agg(kind order by ctid) kinds, array_agg(degree order by ctid) degrees from nodes) n,
       (select string_agg(normalised, $1 order by ctid) alias_normalised, string_agg(alias, $1 order by ctid) alias_alias,
               string_agg(source, $1 order by ctid) alias_source, string_agg(node_id, $1 order by ctid) alias_node from node_aliases) a`,
    [separator],
  ))!;
}
