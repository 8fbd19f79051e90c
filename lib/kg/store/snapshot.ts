import type pg from 'pg';
import { z } from 'zod';
import { databaseUrl, getPool } from '@/lib/db/client';
import { ByteKeys } from '../query/byte-keys';
import { copyByteRows, fieldInteger, fieldText, isEscaped, type ByteRow } from './copy-rows';
import { readSavedSnapshot, saveSnapshot, savedSnapshotFile, type MetaedgeRow, type SnapshotIndexes, type SnapshotParts } from './snapshot-file';

/**
 * An in-memory, read-only copy of the graph's structure (CSR incidence lists in
 * typed arrays) for the traversals: neighbours, shared neighbours, paths,
 * metapaths, typed expansion and sampling.
 *
 * Why not SQL: measured on the Hetionet subset (2 cores), one hub's top-50
 * neighbours cost 8–15 ms in Postgres (14–23k index entries visited and sorted)
 * and 28 ms ordered by neighbour degree; one BFS level from a gene's 964
 * neighbours fetched 760k edges in ~1 s. The same work in memory takes
 * microseconds to a few milliseconds. Postgres stays the source of truth: the
 * snapshot is loaded from it and reloaded when its signature (edge id range,
 * latest graph import) changes. A large graph's snapshot is also saved to a
 * file named by that signature (snapshot-file.ts), which the next process
 * reads instead: the 3.85M-edge synthetic PrimeKG in about 2 s against tens
 * of seconds from Postgres on a busy 2-core machine.
 */
export interface GraphSnapshot extends SnapshotIndexes {
  signature: string;
  loadMs: number;
  nodeCount: number;
  edgeCount: number;
  nodeIds: string[];
  nodeNames: string[];
  /** Index into `kinds`. */
  nodeKind: Uint16Array;
  kinds: string[];
  nodeIndex: Map<string, number>;
  metaedges: string[];
  metaedgeIndex: Map<string, number>;
  /** Per metaedge: the kinds at its ends (from its first edge) and whether it is directed. */
  metaedgeInfo: { sourceKind: string; targetKind: string; directed: boolean }[];
  /** Edges in ascending id order; positions into these arrays are "edge positions". */
  edgeId: Int32Array;
  edgeSource: Int32Array;
  edgeTarget: Int32Array;
  edgeMeta: Uint16Array;
  // The indexes (SnapshotIndexes): node v's edges (both directions, ascending edge id) are incidence entries
  // incStart[v]..incStart[v+1]; edge positions grouped by metaedge (ascending id), metaedge m's metaStart[m]..metaStart[m+1].
}

/** How long a snapshot is trusted before its signature is checked again. */
const FRESHNESS_CHECK_MS = 2_000;

interface CacheEntry {
  snapshot: Promise<GraphSnapshot>;
  checkedAt: number;
}

// On globalThis so that Next's module reloading in development keeps one copy per process.
const globalCache = globalThis as unknown as { hopscopeGraphSnapshots?: Map<string, CacheEntry> };

function cache(): Map<string, CacheEntry> {
  globalCache.hopscopeGraphSnapshots ??= new Map();
  return globalCache.hopscopeGraphSnapshots;
}

/** The current graph snapshot of this process's database, loading or refreshing it when needed. */
export async function graphSnapshot(): Promise<GraphSnapshot> {
  const url = databaseUrl();
  const entries = cache();
  const entry = entries.get(url);
  const now = Date.now();
  if (!entry) return startLoad(url).snapshot;
  if (now - entry.checkedAt < FRESHNESS_CHECK_MS) return entry.snapshot;
  entry.checkedAt = now;
  const current = await entry.snapshot;
  const signature = await readSignature(getPool());
  if (signature === current.signature) return current;
  return startLoad(url).snapshot;
}

/** Drops the cached snapshots, e.g. right after an import in this process. */
export function invalidateGraphSnapshot(): void {
  cache().clear();
}

function startLoad(url: string): CacheEntry {
  const entry: CacheEntry = { snapshot: loadSnapshot(), checkedAt: Date.now() };
  entry.snapshot.catch(() => {
    if (cache().get(url) === entry) cache().delete(url);
  });
  cache().set(url, entry);
  return entry;
}

async function readSignature(db: pg.Pool | pg.PoolClient): Promise<string> {
  const { rows } = await db.query(
    `select concat_ws(':', (select min(id) from edges), (select max(id) from edges),
                      (select max(imported_at) from kg_imports where kind = 'graph')) as sig`,
  );
  return z.object({ sig: z.string() }).parse(rows[0]).sig;
}

async function loadSnapshot(): Promise<GraphSnapshot> {
  const started = performance.now();
  const client = await getPool().connect();
  try {
    // One consistent view of nodes, edges and the signature that describes them.
    await client.query('begin isolation level repeatable read read only');
    const signature = await readSignature(client);
    const file = await savedSnapshotFile(client, signature);
    const saved = await readSavedSnapshot(file);
    const parts = saved ?? (await readGraph(client));
    await client.query('commit');
    const indexes = parts.indexes ?? snapshotIndexes(parts);
    if (!saved && parts.edgeId.length >= SAVE_FROM_EDGES) await saveSnapshot(file, { ...parts, indexes });
    return buildSnapshot(parts, indexes, signature, performance.now() - started);
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

const NodeTuplesSchema = z.array(z.tuple([z.string(), z.string(), z.string()]));
const MetaedgeRowsSchema: z.ZodType<MetaedgeRow[]> = z.array(
  z.object({ abbr: z.string(), directed: z.boolean().nullable(), source_kind: z.string().nullable(), target_kind: z.string().nullable() }),
);

/** Below this many edges a load from PostgreSQL takes about a second and no file is kept. */
const SAVE_FROM_EDGES = 250_000;

/** Nodes, metaedges and edges from the database, edges in id order. */
async function readGraph(client: pg.PoolClient): Promise<SnapshotParts> {
  // Parallel workers would interleave the edges, which otherwise arrive in (or near) id order.
  await client.query('set local max_parallel_workers_per_gather = 0');
  const nodes = NodeTuplesSchema.parse((await client.query({ text: 'select id, kind, name from nodes order by id', rowMode: 'array' })).rows);
  const { rows: metaedgeRows } = await client.query(
    `with recursive used (abbr) as (select min(metaedge) from edges
                                     union all select (select min(metaedge) from edges where metaedge > used.abbr) from used where used.abbr is not null)
     select used.abbr, m.directed, m.source_kind, m.target_kind from used left join metaedges m on m.abbr = used.abbr where used.abbr is not null order by used.abbr`,
  );
  const metaedges = MetaedgeRowsSchema.parse(metaedgeRows);
  // The planner's row estimate sizes the arrays (a count(*) would cost a scan); they grow if it is short.
  const { rows: estimate } = await client.query(`select greatest(reltuples, 0)::int as n from pg_class where oid = 'edges'::regclass`);
  const edges = new EdgeArrays(z.array(z.object({ n: z.number() })).parse(estimate)[0]?.n ?? 0);
  // Ids are looked up by their bytes in COPY's buffer, so no string is made per edge. COPY escapes
  // backslashes, so ids holding one are never spelled as they are: those are looked up as text.
  const nodeIds = nodes.map((r) => r[0]);
  const lookup = (names: string[]) => {
    const keys = new ByteKeys(names.map((name) => (name.includes('\\') ? null : name)));
    let escaped: Map<string, number> | null = null;
    return (row: ByteRow, field: number) => {
      const found = keys.find(row.bytes, row.start[field], row.end[field]);
      if (found >= 0 || !isEscaped(row, field)) return found;
      escaped ??= new Map(names.map((name, i) => [name, i]));
      return escaped.get(fieldText(row, field)) ?? -1;
    };
  };
  const nodeOf = lookup(nodeIds);
  const metaedgeOf = lookup(metaedges.map((m) => m.abbr));
  await copyByteRows(client, 'select id, source_id, metaedge, target_id from edges', 4, (row) => {
    const [source, metaedge, target] = [nodeOf(row, 1), metaedgeOf(row, 2), nodeOf(row, 3)];
    // The importer validates ends; an edge to a missing node could not be shown, so it is left out.
    if (source >= 0 && target >= 0 && metaedge >= 0) edges.add(fieldInteger(row, 0), source, metaedge, target);
  });
  const kinds: string[] = [];
  const kindIndex = new Map<string, number>();
  const nodeKind = new Uint16Array(nodes.length);
  nodes.forEach(([, kind], i) => {
    let k = kindIndex.get(kind);
    if (k === undefined) kindIndex.set(kind, (k = kinds.push(kind) - 1));
    nodeKind[i] = k;
  });
  return {
    nodeIds,
    nodeNames: nodes.map((r) => r[2]),
    nodeKind,
    kinds,
    metaedges,
    ...edges.sortedById(),
  };
}

/** Edges as they arrive, in growing typed arrays. */
class EdgeArrays {
  private id: Int32Array;
  private source: Int32Array;
  private target: Int32Array;
  private meta: Uint16Array;
  private count = 0;

  constructor(expected: number) {
    this.id = new Int32Array(expected);
    this.source = new Int32Array(expected);
    this.target = new Int32Array(expected);
    this.meta = new Uint16Array(expected);
  }

  /** An edge by id, its ends as node positions and its metaedge as a position in name order. */
  add(id: number, source: number, metaedge: number, target: number) {
    if (this.count === this.id.length) this.grow();
    const i = this.count++;
    this.id[i] = id;
    this.source[i] = source;
    this.target[i] = target;
    this.meta[i] = metaedge;
  }

  /**
   * Trimmed to the edges read (spare capacity left by a high estimate is
   * released) and in id order: COPY returns heap order, usually but not always
   * id order, and every list downstream relies on id order.
   */
  sortedById(): Pick<SnapshotParts, 'edgeId' | 'edgeSource' | 'edgeTarget' | 'edgeMeta'> {
    const e = this.count;
    let sorted = true;
    for (let i = 1; i < e && sorted; i++) sorted = this.id[i - 1] < this.id[i];
    const order = sorted ? null : Array.from({ length: e }, (_, i) => i).sort((a, b) => this.id[a] - this.id[b]);
    const arranged = <T extends Int32Array | Uint16Array>(a: T): T => {
      if (!order) return a.slice(0, e) as T;
      const b = a.slice(0, e) as T;
      order.forEach((from, to) => (b[to] = a[from]));
      return b;
    };
    return { edgeId: arranged(this.id), edgeSource: arranged(this.source), edgeTarget: arranged(this.target), edgeMeta: arranged(this.meta) };
  }

  private grow() {
    const size = Math.max(1024, this.id.length * 2);
    const grown = <T extends Int32Array | Uint16Array>(a: T, make: (n: number) => T) => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.id = grown(this.id, (n) => new Int32Array(n));
    this.source = grown(this.source, (n) => new Int32Array(n));
    this.target = grown(this.target, (n) => new Int32Array(n));
    this.meta = grown(this.meta, (n) => new Uint16Array(n));
  }
}

/** The incidence and per-metaedge lists the traversals use, derived from the edges in a few linear passes (saved with them: ./snapshot-file). */
function snapshotIndexes(parts: SnapshotParts): SnapshotIndexes {
  const { edgeSource, edgeTarget, edgeMeta } = parts;
  const n = parts.nodeIds.length;
  const e = parts.edgeId.length;

  // Counting sort into incidence lists; walking edges in id order keeps every list in id order.
  const incStart = new Int32Array(n + 1);
  for (let i = 0; i < e; i++) {
    incStart[edgeSource[i] + 1]++;
    incStart[edgeTarget[i] + 1]++;
  }
  for (let v = 0; v < n; v++) incStart[v + 1] += incStart[v];
  const fill = incStart.slice(0, n);
  const incEdge = new Int32Array(2 * e);
  const incNeighbor = new Int32Array(2 * e);
  const incMeta = new Uint16Array(2 * e);
  for (let i = 0; i < e; i++) {
    const s = edgeSource[i];
    const t = edgeTarget[i];
    const a = fill[s]++;
    incEdge[a] = i;
    incNeighbor[a] = t;
    incMeta[a] = edgeMeta[i];
    const b = fill[t]++;
    incEdge[b] = i;
    incNeighbor[b] = s;
    incMeta[b] = edgeMeta[i];
  }

  const m = parts.metaedges.length;
  const metaStart = new Int32Array(m + 1);
  for (let i = 0; i < e; i++) metaStart[edgeMeta[i] + 1]++;
  for (let k = 0; k < m; k++) metaStart[k + 1] += metaStart[k];
  const metaFill = metaStart.slice(0, m);
  const metaEdges = new Int32Array(e);
  for (let i = 0; i < e; i++) metaEdges[metaFill[edgeMeta[i]]++] = i;
  return { incStart, incEdge, incNeighbor, incMeta, metaStart, metaEdges };
}

/** The snapshot of the parts and their indexes. */
function buildSnapshot(parts: SnapshotParts, indexes: SnapshotIndexes, signature: string, loadMs: number): GraphSnapshot {
  const { nodeIds, nodeKind, kinds, edgeSource, edgeTarget, edgeMeta } = parts;
  const n = nodeIds.length;
  const e = parts.edgeId.length;
  const m = parts.metaedges.length;
  // A metaedge's kinds are those at the ends of its first edge (the metagraph's when none is left).
  const first = new Int32Array(m).fill(-1);
  for (let i = e - 1; i >= 0; i--) first[edgeMeta[i]] = i;
  const metaedgeInfo = parts.metaedges.map((row, k) => ({
    sourceKind: first[k] < 0 ? (row.source_kind ?? '') : kinds[nodeKind[edgeSource[first[k]]]],
    targetKind: first[k] < 0 ? (row.target_kind ?? '') : kinds[nodeKind[edgeTarget[first[k]]]],
    // Hetionet marks its directed metaedges with '>' (Gr>G) when no metagraph was imported.
    directed: row.directed ?? row.abbr.includes('>'),
  }));
  const metaedges = parts.metaedges.map((row) => row.abbr);
  return {
    signature,
    loadMs,
    nodeCount: n,
    edgeCount: e,
    nodeIds,
    nodeNames: parts.nodeNames,
    nodeKind,
    kinds,
    nodeIndex: new Map(nodeIds.map((id, i) => [id, i])),
    metaedges,
    metaedgeIndex: new Map(metaedges.map((abbr, k) => [abbr, k])),
    metaedgeInfo,
    edgeId: parts.edgeId,
    edgeSource,
    edgeTarget,
    edgeMeta,
    ...indexes,
  };
}
