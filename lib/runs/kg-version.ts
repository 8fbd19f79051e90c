import { getPool } from '@/lib/db/client';

/** "<source> <version> (<checksum prefix>)" of the graph in use, stored on each run. */
export async function currentKgVersion(): Promise<string | null> {
  const { rows } = await getPool().query<{ source: string; version: string; checksum: string }>(
    `select source, version, checksum from kg_imports where kind = 'graph' order by imported_at desc limit 1`,
  );
  const r = rows[0];
  return r ? `${r.source} ${r.version} (${r.checksum.slice(0, 12)})` : null;
}
