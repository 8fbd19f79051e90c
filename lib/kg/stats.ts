import { getPool } from '@/lib/db/client';
import { DEMO_SOURCE } from './demo/files';

export interface KgImportRecord {
  id: string;
  source: string;
  version: string;
  kind: string;
  nodeCount: number;
  edgeCount: number;
  checksum: string;
  durationMs: number;
  importedAt: string;
}

export interface KgStats {
  nodes: number;
  edges: number;
  kinds: { kind: string; count: number }[];
  metaedges: { abbr: string; count: number; description: string | null; sourceKind: string | null; targetKind: string | null }[];
  /** The latest graph import; null when the graph was loaded some other way. */
  lastImport: KgImportRecord | null;
  /** That import's source ("hetionet", "demo", ...), or null. */
  source: string | null;
}

/**
 * Counts per kind and metaedge. Edge counts are summed from node_degrees (each
 * edge counted once, at its source): 150k rows instead of 1.4M edges.
 */
export async function kgStats(): Promise<KgStats> {
  const db = getPool();
  const [kinds, metaedges, imports] = await Promise.all([
    db.query<{ kind: string; count: number }>('select kind, count(*)::int as count from nodes group by kind order by kind'),
    db.query<KgStats['metaedges'][number]>(
      `select d.abbr, d.count, m.description, m.source_kind as "sourceKind", m.target_kind as "targetKind"
         from (select metaedge as abbr, sum(count)::int as count from node_degrees where direction = 'out' group by metaedge) d
         left join metaedges m on m.abbr = d.abbr
        order by d.abbr`,
    ),
    db.query<KgImportRecord>(
      `select id, source, version, kind, node_count as "nodeCount", edge_count as "edgeCount", checksum,
              duration_ms as "durationMs", to_json(imported_at) #>> '{}' as "importedAt"
         from kg_imports where kind = 'graph' order by imported_at desc limit 1`,
    ),
  ]);
  const sum = (rows: { count: number }[]) => rows.reduce((s, r) => s + r.count, 0);
  const lastImport = imports.rows[0] ?? null;
  return { nodes: sum(kinds.rows), edges: sum(metaedges.rows), kinds: kinds.rows, metaedges: metaedges.rows, lastImport, source: lastImport?.source ?? null };
}

/** The loaded graph as the UI and the import CLI name it, from its import record: "Hetionet v1.0", "demo graph (not Hetionet)", or another import's source and version. */
export function graphName(record: { source: string; version: string } | null): string {
  if (!record) return 'the loaded knowledge graph';
  if (record.source === DEMO_SOURCE) return 'demo graph (not Hetionet)';
  if (record.source === 'hetionet') return `Hetionet ${record.version}`;
  return `${record.source} ${record.version}`.trim();
}

/** The name of the graph the database holds now (its latest graph import); a generic name when the database does not answer. */
export async function loadedGraphName(): Promise<string> {
  try {
    const { rows } = await getPool().query<{ source: string; version: string }>(
      `select source, version from kg_imports where kind = 'graph' order by imported_at desc limit 1`,
    );
    return graphName(rows[0] ?? null);
  } catch {
    return graphName(null);
  }
}
