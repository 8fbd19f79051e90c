import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';

/**
 * The reads the linking-set generator (scripts/linking-set.ts) samples its cases from:
 * names, aliases and gene full names of the loaded graph, each in a seeded order
 * (md5(key || seed)), so the set is the same for the same graph and seed.
 */

const NodeRow = z.object({ id: z.string(), kind: z.string(), name: z.string(), normalised: z.string() });
export type SampledNode = z.infer<typeof NodeRow>;
const AliasGroup = z.object({ alias: z.string(), ids: z.array(z.string()) });
const IdAlias = z.object({ id: z.string(), alias: z.string() });

/** The pool's rows of `sql`, each parsed by `schema`. */
const rows = <T extends z.ZodType>(schema: T, sql: string, values?: unknown[]) => queryRows(getPool(), schema, sql, values);

/** Which nodes a sample draws from, by the kind of case made of them. */
const NODE_FILTERS = {
  exact: `length(normalised) between 4 and 40`,
  misspelt: `kind in ('Disease', 'Compound', 'Side Effect', 'Symptom', 'Anatomy') and normalised ~ '^[a-z]{5,}$'`,
  'misspelt-words': `kind in ('Disease', 'Side Effect', 'Symptom', 'Anatomy', 'Pathway', 'Biological Process') and normalised ~ '^[a-z]{3,} [a-z ]{5,30}$'`,
  'misspelt-twice': `kind in ('Disease', 'Compound', 'Side Effect', 'Symptom', 'Anatomy') and normalised ~ '^[a-z]{10,}$'`,
  'misspelt-sound': `kind in ('Disease', 'Compound', 'Side Effect', 'Symptom') and normalised ~ '^[a-z ]{7,30}$'`,
  american: `kind <> 'Gene' and normalised ~ '(emia|^hem|esophag|edema|tumor|diarrhea)'`,
  british: `kind <> 'Gene' and normalised ~ '(aemia|haem|oesophag|oedema|tumour|diarrhoea)'`,
  'two-words': `kind in ('Disease', 'Side Effect', 'Symptom', 'Anatomy') and normalised ~ '^[a-z]{4,} [a-z]{4,}$'`,
  'prefixed-word': `kind in ('Disease', 'Side Effect', 'Symptom') and normalised ~ '^(osteo|hyper|hypo|neuro|cardio|gastro|poly|anti|cyto|endo|myo|nephro)[a-z]{5,}$'`,
  'gene-symbol': `kind = 'Gene' and name ~ '^[A-Z]{2,3}$'`,
  // One-word conditions, some of them verbs too ("Fall", "Cough"), and names that start with a function word ("The AIM2 inflammasome").
  'one-word-condition': `kind in ('Side Effect', 'Symptom') and normalised ~ '^[a-z]{4,10}$'`,
  'function-word-start': `name ~ '^(The|A|An|Of|In|On|To|With|By|For) [A-Za-z0-9]'`,
  // Names of two to four words, two of them of five letters or more: a slip in each ("rheumatiod arthirtis").
  'multi-word': `kind in ('Disease', 'Side Effect', 'Symptom', 'Anatomy', 'Compound', 'Pathway') and normalised ~ '^[a-z]+( [a-z]+){1,3}$' and normalised ~ '[a-z]{5,} ([a-z]+ )*[a-z]{5,}'`,
  drug: `kind = 'Compound' and normalised ~ '^[a-z]{7,}$'`,
  // The graph's diseases named "<organ> cancer" ("prostate cancer"), written with another head noun ("prostate carcinoma").
  'organ-cancer': `kind = 'Disease' and normalised ~ '^[a-z]+( [a-z]+)? cancer$'`,
  // Eponyms with their possessive ("Alzheimer's disease"), written without the apostrophe ("Alzheimers disease").
  possessive: `kind in ('Disease', 'Side Effect', 'Symptom') and name ~ '^[A-Z][a-z]+[''’]s( [a-z]+){0,2}$'`,
  // One long word ("desmopressin"), misspelt at both ends.
  'long-word': `kind in ('Disease', 'Compound', 'Side Effect', 'Symptom') and normalised ~ '^[a-z]{10,16}$'`,
  // Names of three words or more, two or three of which may be written as their initials ("PNS neoplasm").
  'initials-run': `kind in ('Disease', 'Side Effect', 'Symptom', 'Anatomy', 'Pharmacologic Class') and normalised ~ '^[a-z]+( [a-z]+){2,4}$'`,
} as const;
export type NodeFilter = keyof typeof NODE_FILTERS;

/** n nodes the filter lets through, in the seed's order. */
export function sampleNodes(filter: NodeFilter, n: number, seed: string): Promise<SampledNode[]> {
  return rows(NodeRow, `select id, kind, name, normalised from nodes where ${NODE_FILTERS[filter]} order by md5(id || $1) limit ${n}`, [seed]);
}

/** Every disease, in the seed's order. */
export function diseasesInOrder(seed: string): Promise<SampledNode[]> {
  return rows(NodeRow, `select id, kind, name, normalised from nodes where kind = 'Disease' order by md5(id || $1)`, [seed]);
}

/** Node ids by normalised name. */
export async function nodeIdsByName(): Promise<Map<string, string[]>> {
  const byNormalised = new Map<string, string[]>();
  for (const r of await rows(z.object({ normalised: z.string(), id: z.string() }), 'select normalised, id from nodes'))
    byNormalised.set(r.normalised, [...(byNormalised.get(r.normalised) ?? []), r.id]);
  return byNormalised;
}

/** Every normalised alias (of any kind, when `nonGenes`, only those of nodes that are not genes), but those of the sources in `except`. */
export async function aliasKeys(opts: { nonGenes?: boolean; except?: string[] } = {}): Promise<Set<string>> {
  const sql = opts.nonGenes
    ? `select distinct a.normalised from node_aliases a join nodes n on n.id = a.node_id where n.kind <> 'Gene' and a.source <> all($1::text[])`
    : 'select distinct normalised from node_aliases where source <> all($1::text[])';
  return new Set((await rows(z.object({ normalised: z.string() }), sql, [opts.except ?? []])).map((r) => r.normalised));
}

/** Up to 40 genes' NCBI full names (12–45 characters, no placeholders), in the seed's order. */
export function geneFullNames(seed: string): Promise<{ id: string; alias: string }[]> {
  return rows(
    IdAlias,
    `select a.node_id as id, a.alias from node_aliases a where a.source = 'ncbi-full-name' and length(a.alias) between 12 and 45
       and a.alias !~* '(like|open reading frame|uncharacterized|pseudogene)' order by md5(a.node_id || $1) limit 40`,
    [seed],
  );
}

/** Which aliases a sample of gene names draws from. */
const ALIAS_FILTERS = {
  'gene-synonym': `a.source = 'ncbi-synonym' and a.alias ~ '^[A-Za-z][A-Za-z0-9-]{3,10}$' and a.alias ~ '[0-9]'`,
  'gene-designation': `a.source = 'ncbi-other-designation' and length(a.alias) between 15 and 45 and a.alias ~ ' .* ' and a.alias !~* '(like|uncharacterized|hypothetical|pseudogene)'`,
  'wordnet-synonym': `a.source = 'wordnet-synonym'`,
  // A condition's name with its adjective as a noun, of two words ("stomach ulcer" for Gastric ulcer).
  'wordnet-derived': `a.source = 'wordnet-derived' and a.alias ~ '^[a-z]+ [a-z]+$'`,
  // A condition's name with one word in another word of its state synset, of several words ("gastrointestinal bleeding").
  'wordnet-word-synonym': `a.source = 'wordnet-word-synonym' and a.alias ~ ' '`,
  // A condition's short WordNet definition ("loss of hair", "hair loss").
  'wordnet-gloss': `a.source = 'wordnet-gloss'`,
} as const;

/** n aliases the filter lets through that are no node's name, each with every node it names, in the seed's order. */
export function aliasesNamingNoNode(filter: keyof typeof ALIAS_FILTERS, n: number, seed: string): Promise<{ alias: string; ids: string[] }[]> {
  return rows(
    AliasGroup,
    `select min(a.alias) as alias, array_agg(distinct a.node_id) as ids from node_aliases a where ${ALIAS_FILTERS[filter]}
        and not exists (select 1 from nodes n where n.normalised = a.normalised)
      group by a.normalised order by md5(a.normalised || $1) limit ${n}`,
    [seed],
  );
}

/** Up to 12 one-word-tailed nodes named "<gene full name> <word>", with the gene's symbol and the word, in the seed's order. */
export function geneDerivedNames(seed: string): Promise<{ id: string; kind: string; normalised: string; symbol: string; rest: string }[]> {
  return rows(
    z.object({ id: z.string(), kind: z.string(), normalised: z.string(), symbol: z.string(), rest: z.string() }),
    `select n.id, n.kind, n.normalised, g.name as symbol, substr(n.normalised, length(a.normalised) + 2) as rest
       from node_aliases a join nodes g on g.id = a.node_id
       join nodes n on n.normalised like a.normalised || ' %' and n.kind <> 'Gene' and n.normalised !~ ' .* '
                    and substr(n.normalised, length(a.normalised) + 2) !~ ' '
      where a.source = 'ncbi-full-name' and length(a.normalised) >= 6
      order by md5(n.id || $1) limit 12`,
    [seed],
  );
}

/** Disease Ontology's short names of diseases, in the seed's order. */
export function doShortNames(seed: string): Promise<{ id: string; alias: string }[]> {
  return rows(IdAlias, `select node_id as id, alias from node_aliases where source = 'do-name' order by md5(node_id || $1)`, [seed]);
}

/** Gene symbols and synonyms of three to eight letters, lower-cased, in order. */
export async function geneWordAliases(): Promise<string[]> {
  const found = await rows(
    z.object({ alias: z.string() }),
    `select distinct lower(alias) as alias from node_aliases where source in ('ncbi-symbol', 'ncbi-synonym') and alias ~ '^[A-Za-z]{3,8}$' order by 1`,
  );
  return found.map((r) => r.alias);
}

/** 25 short gene aliases (two to four capitals, no node's name), upper-cased, with the genes that carry them, in the seed's order. */
export function shortGeneAliases(seed: string): Promise<{ alias: string; ids: string[] }[]> {
  return rows(
    AliasGroup,
    `select upper(k.normalised) as alias, (select array_agg(distinct b.node_id) from node_aliases b where b.normalised = k.normalised) as ids
       from (select distinct a.normalised from node_aliases a
              where a.source in ('ncbi-synonym', 'ncbi-other-designation') and a.alias ~ '^[A-Z]{2,4}$'
                and not exists (select 1 from nodes n where n.normalised = a.normalised)) k
      order by md5(upper(k.normalised) || $1) limit 25`,
    [seed],
  );
}

/** The kind of each of these nodes. */
export async function kindsOf(ids: string[]): Promise<Map<string, string>> {
  const found = await rows(z.object({ id: z.string(), kind: z.string() }), `select id, kind from nodes where id = any($1::text[])`, [ids]);
  return new Map(found.map((r) => [r.id, r.kind]));
}
