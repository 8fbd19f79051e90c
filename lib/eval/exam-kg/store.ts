import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { FULL_NAME_SOURCE } from '@/lib/kg/linking/store';

/** Alias source of a gene's NCBI synonyms (symbols, like the node's own name). */
const SYNONYM_SOURCE = 'ncbi-synonym';

/** One name of a node: its own, a gene's full name, or an NCBI synonym; `symbol` for a gene symbol or synonym, whose case counts. */
const NameRowSchema = z.object({ id: z.string(), name: z.string(), normalised: z.string(), symbol: z.boolean(), synonym: z.boolean() });
export type NameRow = z.output<typeof NameRowSchema>;

/** Every node's own name, and genes' full names and NCBI synonyms. */
export async function readNames(): Promise<NameRow[]> {
  return queryRows(
    getPool(),
    NameRowSchema,
    `select id, name, normalised, kind = 'Gene' as symbol, false as synonym from nodes
     union all
     select node_id, alias, normalised, source = $2, source = $2 from node_aliases where source = any($1::text[])`,
    [[FULL_NAME_SOURCE, SYNONYM_SOURCE], SYNONYM_SOURCE],
  );
}

/** Which of `from` share an edge (any metaedge, either direction) with one of `to`. */
export async function joinedNodes(from: string[], to: string[]): Promise<Set<string>> {
  if (!from.length || !to.length) return new Set();
  const rows = await queryRows(
    getPool(),
    z.object({ id: z.string() }),
    `select source_id as id from edges where source_id = any($1::text[]) and target_id = any($2::text[])
     union select target_id as id from edges where target_id = any($1::text[]) and source_id = any($2::text[])`,
    [from, to],
  );
  return new Set(rows.map((r) => r.id));
}
