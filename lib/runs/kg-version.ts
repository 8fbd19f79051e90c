import { getPool } from '@/lib/db/client';

/** The version changes only with a graph import; runs in between read it from memory. */
const TTL_MS = 10_000;
let cached: { at: number; version: Promise<string | null> } | null = null;

/** "<source> <version> (<checksum prefix>)" of the graph in use, stored on each run. */
export function currentKgVersion(): Promise<string | null> {
  if (!cached || Date.now() - cached.at > TTL_MS) cached = { at: Date.now(), version: readKgVersion() };
  return cached.version;
}

async function readKgVersion(): Promise<string | null> {
  const { rows } = await getPool().query<{ source: string; version: string; checksum: string }>(
    `select source, version, checksum from kg_imports where kind = 'graph' order by imported_at desc limit 1`,
  );
  const r = rows[0];
  return r ? `${r.source} ${r.version} (${r.checksum.slice(0, 12)})` : null;
}
