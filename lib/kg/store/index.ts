import { z } from 'zod';
import { databaseUrl, getPool } from '@/lib/db/client';
import { queryRow, queryRows } from '@/lib/db/rows';
import type { KgNode } from '../types';
import type { MetaedgeRow } from '../relations';

/**
 * The knowledge graph's store: the import record, the metagraph and small reads.
 * Beside it: node lookups and profiles (./nodes), linking's name lookups (./link-sql,
 * ./trigram), counts (./stats), the in-memory snapshot (./snapshot, loaded by COPY)
 * and the bulk imports' connection (./bulk).
 */

/** Names the database in use, so per-process memories can tell another database apart. */
export function databaseKey(): string {
  return databaseUrl();
}

/** The imports' signature as a query (one row, `signature`): what importsSignature reads, and what stored per-import data is keyed by. */
export const IMPORTS_SIGNATURE_SQL = `select count(*) || ':' || coalesce(max(imported_at)::text, '') as signature from kg_imports`;

/** Changes with every import (graph, profiles, documents): what a memory of name lookups is checked against. */
export async function importsSignature(): Promise<string> {
  const row = await queryRow(getPool(), z.object({ signature: z.string() }), IMPORTS_SIGNATURE_SQL);
  return row!.signature;
}

/** The latest graph import as "<source> <version> (<checksum prefix>)", or null before any. */
export async function latestGraphImport(): Promise<string | null> {
  const r = await queryRow(
    getPool(),
    z.object({ source: z.string(), version: z.string(), checksum: z.string() }),
    `select source, version, checksum from kg_imports where kind = 'graph' order by imported_at desc limit 1`,
  );
  return r ? `${r.source} ${r.version} (${r.checksum.slice(0, 12)})` : null;
}

/** The metaedges the graph holds edges of, by abbreviation. */
export function loadedMetaedges(): Promise<MetaedgeRow[]> {
  return queryRows(
    getPool(),
    z.object({ abbr: z.string(), sourceKind: z.string(), verb: z.string(), targetKind: z.string(), directed: z.boolean() }),
    `select abbr, source_kind "sourceKind", verb, target_kind "targetKind", directed from metaedges m
      where exists (select 1 from edges e where e.metaedge = m.abbr) order by abbr`,
  );
}

/** Per node, its `perNode` longest aliases of at least `minLength` characters (longest first). */
export async function searchAliasesOf(
  nodeIds: readonly string[],
  { perNode, minLength }: { perNode: number; minLength: number },
): Promise<Map<string, string[]>> {
  const byNode = new Map<string, string[]>();
  if (!nodeIds.length) return byNode;
  const rows = await queryRows(
    getPool(),
    z.object({ node_id: z.string(), alias: z.string() }),
    `select node_id, alias from (
       select node_id, alias, row_number() over (partition by node_id order by length(alias) desc, alias) as n
         from node_aliases where node_id = any($1) and length(alias) >= $3) a
      where n <= $2`,
    [nodeIds, perNode, minLength],
  );
  for (const r of rows) byNode.set(r.node_id, [...(byNode.get(r.node_id) ?? []), r.alias]);
  return byNode;
}

/** A connected node of this kind other than `not`, picked by a hash of `key` (the same key picks the same node); null when there is none. */
export function hashedNodeOfKind(kind: string, not: string, key: string): Promise<KgNode | null> {
  return queryRow(
    getPool(),
    z.object({ id: z.string(), kind: z.string(), name: z.string() }),
    `select id, kind, name from nodes where kind = $1 and degree > 0 and id <> $2 order by md5(id || $3) limit 1`,
    [kind, not, key],
  );
}

/** Whether the database holds any edge (a graph was loaded). */
export async function graphHasEdges(): Promise<boolean> {
  const row = await queryRow(getPool(), z.object({ loaded: z.boolean() }), 'select exists (select 1 from edges) as loaded');
  return row!.loaded;
}

/** Every metaedge's description ("Compound – treats – Disease"), by abbreviation. */
export async function metaedgeDescriptions(): Promise<Map<string, string>> {
  const rows = await queryRows(getPool(), z.object({ abbr: z.string(), description: z.string() }), 'select abbr, description from metaedges');
  return new Map(rows.map((r) => [r.abbr, r.description]));
}
