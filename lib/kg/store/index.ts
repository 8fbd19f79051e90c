import { z } from 'zod';
import { databaseUrl, getPool } from '@/lib/db/client';
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
  const { rows } = await getPool().query(IMPORTS_SIGNATURE_SQL);
  return z.object({ signature: z.string() }).parse(rows[0]).signature;
}

/** The latest graph import as "<source> <version> (<checksum prefix>)", or null before any. */
export async function latestGraphImport(): Promise<string | null> {
  const { rows } = await getPool().query(`select source, version, checksum from kg_imports where kind = 'graph' order by imported_at desc limit 1`);
  const r = z.array(z.object({ source: z.string(), version: z.string(), checksum: z.string() })).parse(rows)[0];
  return r ? `${r.source} ${r.version} (${r.checksum.slice(0, 12)})` : null;
}

/** The metaedges the graph holds edges of, by abbreviation. */
export async function loadedMetaedges(): Promise<MetaedgeRow[]> {
  const { rows } = await getPool().query(
    `select abbr, source_kind "sourceKind", verb, target_kind "targetKind", directed from metaedges m
      where exists (select 1 from edges e where e.metaedge = m.abbr) order by abbr`,
  );
  return z.array(z.object({ abbr: z.string(), sourceKind: z.string(), verb: z.string(), targetKind: z.string(), directed: z.boolean() })).parse(rows);
}

/** Per node, its `perNode` longest aliases of at least `minLength` characters (longest first). */
export async function searchAliasesOf(
  nodeIds: readonly string[],
  { perNode, minLength }: { perNode: number; minLength: number },
): Promise<Map<string, string[]>> {
  const byNode = new Map<string, string[]>();
  if (!nodeIds.length) return byNode;
  const { rows } = await getPool().query(
    `select node_id, alias from (
       select node_id, alias, row_number() over (partition by node_id order by length(alias) desc, alias) as n
         from node_aliases where node_id = any($1) and length(alias) >= $3) a
      where n <= $2`,
    [nodeIds, perNode, minLength],
  );
  for (const r of z.array(z.object({ node_id: z.string(), alias: z.string() })).parse(rows)) byNode.set(r.node_id, [...(byNode.get(r.node_id) ?? []), r.alias]);
  return byNode;
}

/** A connected node of this kind other than `not`, picked by a hash of `key` (the same key picks the same node); null when there is none. */
export async function hashedNodeOfKind(kind: string, not: string, key: string): Promise<KgNode | null> {
  const { rows } = await getPool().query(`select id, kind, name from nodes where kind = $1 and degree > 0 and id <> $2 order by md5(id || $3) limit 1`, [
    kind,
    not,
    key,
  ]);
  return rows[0] ? z.object({ id: z.string(), kind: z.string(), name: z.string() }).parse(rows[0]) : null;
}

/** Whether the database holds any edge (a graph was loaded). */
export async function graphHasEdges(): Promise<boolean> {
  const { rows } = await getPool().query('select exists (select 1 from edges) as loaded');
  return z.object({ loaded: z.boolean() }).parse(rows[0]).loaded;
}

/** Every metaedge's description ("Compound – treats – Disease"), by abbreviation. */
export async function metaedgeDescriptions(): Promise<Map<string, string>> {
  const { rows } = await getPool().query('select abbr, description from metaedges');
  return new Map(
    z
      .array(z.object({ abbr: z.string(), description: z.string() }))
      .parse(rows)
      .map((r) => [r.abbr, r.description]),
  );
}
