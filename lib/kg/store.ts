import { databaseUrl, getPool } from '@/lib/db/client';
import type { MetaedgeRow } from './relations';

/**
 * The knowledge graph's store (what is not read through the in-memory snapshot
 * or the query modules under ./query): the import record and the metagraph.
 */

/** Names the database in use, so per-process memories can tell another database apart. */
export function databaseKey(): string {
  return databaseUrl();
}

/** The latest graph import as "<source> <version> (<checksum prefix>)", or null before any. */
export async function latestGraphImport(): Promise<string | null> {
  const { rows } = await getPool().query<{ source: string; version: string; checksum: string }>(
    `select source, version, checksum from kg_imports where kind = 'graph' order by imported_at desc limit 1`,
  );
  const r = rows[0];
  return r ? `${r.source} ${r.version} (${r.checksum.slice(0, 12)})` : null;
}

/** The metaedges the graph holds edges of, by abbreviation. */
export async function loadedMetaedges(): Promise<MetaedgeRow[]> {
  const { rows } = await getPool().query<MetaedgeRow>(
    `select abbr, source_kind "sourceKind", verb, target_kind "targetKind", directed from metaedges m
      where exists (select 1 from edges e where e.metaedge = m.abbr) order by abbr`,
  );
  return rows;
}
