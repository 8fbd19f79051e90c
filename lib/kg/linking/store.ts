import { getPool } from '@/lib/db/client';

/** Alias source of a gene's full name (NCBI gene_info's nomenclature name, or its description). */
export const FULL_NAME_SOURCE = 'ncbi-full-name';
/** Alias source of a gene's other designations ("apoptosis regulator BAX"). */
export const DESIGNATION_SOURCE = 'ncbi-other-designation';

/** A node with one of its names (its own, or an alias and the alias's source). */
export interface NameRow {
  id: string;
  kind: string;
  name: string;
  matched: string;
  normalised: string;
  degree: number;
  source: string | null;
}

/** The node kinds the loaded graph holds. */
export async function readKinds(): Promise<string[]> {
  return (await getPool().query<{ kind: string }>('select distinct kind from nodes')).rows.map((r) => r.kind);
}

/** Every node of these kinds, by its own name. */
export async function readNodesOfKinds(kinds: string[]): Promise<NameRow[]> {
  const { rows } = await getPool().query<NameRow>(
    'select id, kind, name, name as matched, normalised, degree, null::text as source from nodes where kind = any($1::text[])',
    [kinds],
  );
  return rows;
}

/**
 * The names a misspelling may be read as: node names of five characters or
 * more but those of `symbolKinds` (gene symbols are never read fuzzily), genes'
 * full names, and their other designations of several words.
 */
export async function readSpellingNames(symbolKinds: string[]): Promise<NameRow[]> {
  const pool = getPool();
  const [names, aliases] = await Promise.all([
    pool.query<NameRow>(
      `select id, kind, name, name as matched, normalised, degree, null::text as source from nodes where length(normalised) >= 5 and kind <> all($1::text[])`,
      [symbolKinds],
    ),
    pool.query<NameRow>(
      `select n.id, n.kind, n.name, a.alias as matched, a.normalised, n.degree, a.source
         from node_aliases a join nodes n on n.id = a.node_id
        where (a.source = $1 and length(a.normalised) >= 5) or (a.source = $2 and a.normalised like '% %' and length(a.normalised) >= 12)`,
      [FULL_NAME_SOURCE, DESIGNATION_SOURCE],
    ),
  ]);
  return [...names.rows, ...aliases.rows];
}

/** The normalised aliases of `source` per node, for these nodes. */
export async function readAliasesOf(ids: string[], source: string): Promise<Map<string, string[]>> {
  const { rows } = await getPool().query<{ node_id: string; normalised: string }>(
    `select node_id, normalised from node_aliases where source = $2 and node_id = any($1::text[])`,
    [ids, source],
  );
  const names = new Map<string, string[]>();
  for (const r of rows) names.set(r.node_id, [...(names.get(r.node_id) ?? []), r.normalised]);
  return names;
}
