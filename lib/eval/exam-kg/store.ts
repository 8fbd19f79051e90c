import { getPool } from '@/lib/db/client';
import { FULL_NAME_SOURCE } from '@/lib/kg/linking/store';

/** Alias source of a gene's NCBI synonyms (symbols, like the node's own name). */
const SYNONYM_SOURCE = 'ncbi-synonym';

/** One name of a node: its own, a gene's full name, or an NCBI synonym; `symbol` for a gene symbol or synonym, whose case counts. */
export interface NameRow {
  id: string;
  name: string;
  normalised: string;
  symbol: boolean;
  synonym: boolean;
}

/** Every node's own name, and genes' full names and NCBI synonyms. */
export async function readNames(): Promise<NameRow[]> {
  const { rows } = await getPool().query<NameRow>(
    `select id, name, normalised, kind = 'Gene' as symbol, false as synonym from nodes
     union all
     select node_id, alias, normalised, source = $2, source = $2 from node_aliases where source = any($1::text[])`,
    [[FULL_NAME_SOURCE, SYNONYM_SOURCE], SYNONYM_SOURCE],
  );
  return rows;
}

/** Which of `from` share an edge (any metaedge, either direction) with one of `to`. */
export async function joinedNodes(from: string[], to: string[]): Promise<Set<string>> {
  if (!from.length || !to.length) return new Set();
  const { rows } = await getPool().query<{ id: string }>(
    `select source_id as id from edges where source_id = any($1::text[]) and target_id = any($2::text[])
     union select target_id as id from edges where target_id = any($1::text[]) and source_id = any($2::text[])`,
    [from, to],
  );
  return new Set(rows.map((r) => r.id));
}
