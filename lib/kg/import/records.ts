import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { combinedChecksum, type InputFile } from './checksum';
import { z } from 'zod';
import { queryRows } from '@/lib/db/rows';

export type ImportKind = 'graph' | 'profiles' | 'documents';

export interface ImportRecord {
  source: string;
  version: string;
  kind: ImportKind;
  nodeCount: number;
  edgeCount: number;
  counts: unknown;
  checksum: string;
  files: InputFile[];
  durationMs: number;
  importedAt: Date;
}

/** Appends to kg_imports, the history of what the database holds; the newest row per kind (and source) is current. */
export async function recordImport(client: pg.PoolClient, r: Omit<ImportRecord, 'checksum' | 'importedAt'>): Promise<ImportRecord> {
  const checksum = combinedChecksum(r.files);
  const rows = await queryRows(
    client,
    z.object({ imported_at: z.date() }),
    `insert into kg_imports (id, source, version, kind, node_count, edge_count, counts, checksum, files, duration_ms)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning imported_at`,
    [randomUUID(), r.source, r.version, r.kind, r.nodeCount, r.edgeCount, JSON.stringify(r.counts), checksum, JSON.stringify(r.files), r.durationMs],
  );
  return { ...r, checksum, importedAt: rows[0].imported_at };
}

/** Remembers that the import's files were hashed again, found unchanged, as they lie now (InputFile.seen). */
export async function recordFilesSeen(pool: pg.Pool, record: ImportRecord, files: InputFile[]): Promise<void> {
  await pool.query(
    `update kg_imports set files = $1
      where id = (select id from kg_imports where kind = $2 and source = $3 order by imported_at desc limit 1) and checksum = $4`,
    [JSON.stringify(files), record.kind, record.source, record.checksum],
  );
}

/** The newest import of a kind, optionally of one source. */
export async function latestImport(pool: pg.Pool, kind: ImportKind, source?: string): Promise<ImportRecord | null> {
  const { rows } = await pool.query(
    `select source, version, kind, node_count, edge_count, counts, checksum, files, duration_ms, imported_at
       from kg_imports where kind = $1 and ($2::text is null or source = $2)
      order by imported_at desc limit 1`,
    [kind, source ?? null],
  );
  const r = rows[0];
  return r
    ? {
        source: r.source,
        version: r.version,
        kind: r.kind,
        nodeCount: r.node_count,
        edgeCount: r.edge_count,
        counts: r.counts,
        checksum: r.checksum,
        files: r.files,
        durationMs: r.duration_ms,
        importedAt: r.imported_at,
      }
    : null;
}
