import type pg from 'pg';
import { databaseUrl, getPool } from '@/lib/db/client';
import { copyRows } from './copy-rows';

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
 * snapshot is loaded from it (2–3 s for 1.4M edges, ~60 MB) and reloaded when
 * its signature (edge id range, latest graph import) changes.
 */
export interface GraphSnapshot {
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
  /** Incidence lists: node v's edges (both directions, ascending edge id) are entries incStart[v]..incStart[v+1]. */
  incStart: Int32Array;
  incEdge: Int32Array;
  incNeighbor: Int32Array;
  incMeta: Uint16Array;
  /** Edge positions grouped by metaedge (ascending id): metaedge m's are metaStart[m]..metaStart[m+1]. */
  metaStart: Int32Array;
  metaEdges: Int32Array;
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
  const { rows } = await db.query<{ sig: string }>(
    `select concat_ws(':', (select min(id) from edges), (select max(id) from edges),
                      (select max(imported_at) from kg_imports where kind = 'graph')) as sig`,
  );
  return rows[0].sig;
}

async function loadSnapshot(): Promise<GraphSnapshot> {
  const started = performance.now();
  const client = await getPool().connect();
  try {
    // One consistent view of nodes, edges and the signature that describes them.
    await client.query('begin isolation level repeatable read read only');
    const signature = await readSignature(client);
    const nodes = await client.query<[string, string, string]>({ text: 'select id, kind, name from nodes order by id', rowMode: 'array' });
    const directed = await client.query<{ abbr: string; directed: boolean }>('select abbr, directed from metaedges');
    // The planner's row estimate sizes the arrays (a count(*) would cost a scan); they grow if it is short.
    const { rows: estimate } = await client.query<{ n: number }>(`select greatest(reltuples, 0)::int as n from pg_class where oid = 'edges'::regclass`);
    const builder = new SnapshotBuilder(nodes.rows, estimate[0]?.n ?? 0, new Map(directed.rows.map((r) => [r.abbr, r.directed])));
    await copyRows(client, 'select id, source_id, metaedge, target_id from edges', (f) => builder.addEdge(Number(f[0]), f[1], f[2], f[3]));
    await client.query('commit');
    return builder.build(signature, performance.now() - started);
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

class SnapshotBuilder {
  private readonly nodeIds: string[] = [];
  private readonly nodeNames: string[] = [];
  private readonly nodeKind: Uint16Array;
  private readonly kinds: string[] = [];
  private readonly nodeIndex = new Map<string, number>();
  private readonly metaedges: string[] = [];
  private readonly metaedgeIndex = new Map<string, number>();
  private readonly metaedgeInfo: GraphSnapshot['metaedgeInfo'] = [];
  private edgeId: Int32Array;
  private edgeSource: Int32Array;
  private edgeTarget: Int32Array;
  private edgeMeta: Uint16Array;
  private edgeCount = 0;

  constructor(
    nodes: [string, string, string][],
    expectedEdges: number,
    private readonly directedByAbbr: Map<string, boolean>,
  ) {
    const kindIndex = new Map<string, number>();
    this.nodeKind = new Uint16Array(nodes.length);
    nodes.forEach(([id, kind, name], i) => {
      let k = kindIndex.get(kind);
      if (k === undefined) {
        k = this.kinds.length;
        this.kinds.push(kind);
        kindIndex.set(kind, k);
      }
      this.nodeIds.push(id);
      this.nodeNames.push(name);
      this.nodeKind[i] = k;
      this.nodeIndex.set(id, i);
    });
    this.edgeId = new Int32Array(expectedEdges);
    this.edgeSource = new Int32Array(expectedEdges);
    this.edgeTarget = new Int32Array(expectedEdges);
    this.edgeMeta = new Uint16Array(expectedEdges);
  }

  addEdge(id: number, sourceId: string, metaedge: string, targetId: string) {
    const s = this.nodeIndex.get(sourceId);
    const t = this.nodeIndex.get(targetId);
    // The importer validates endpoints; an edge to a missing node cannot be shown, so it is left out.
    if (s === undefined || t === undefined) return;
    if (this.edgeCount === this.edgeId.length) this.grow();
    let m = this.metaedgeIndex.get(metaedge);
    if (m === undefined) {
      m = this.metaedges.length;
      this.metaedges.push(metaedge);
      this.metaedgeIndex.set(metaedge, m);
      this.metaedgeInfo.push({
        sourceKind: this.kinds[this.nodeKind[s]],
        targetKind: this.kinds[this.nodeKind[t]],
        // Hetionet marks its directed metaedges with '>' (Gr>G) when no metagraph was imported.
        directed: this.directedByAbbr.get(metaedge) ?? metaedge.includes('>'),
      });
    }
    const i = this.edgeCount++;
    this.edgeId[i] = id;
    this.edgeSource[i] = s;
    this.edgeTarget[i] = t;
    this.edgeMeta[i] = m;
  }

  private grow() {
    const size = Math.max(1024, this.edgeId.length * 2);
    const grown = <T extends Int32Array | Uint16Array>(a: T, make: (n: number) => T) => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.edgeId = grown(this.edgeId, (n) => new Int32Array(n));
    this.edgeSource = grown(this.edgeSource, (n) => new Int32Array(n));
    this.edgeTarget = grown(this.edgeTarget, (n) => new Int32Array(n));
    this.edgeMeta = grown(this.edgeMeta, (n) => new Uint16Array(n));
  }

  build(signature: string, loadMs: number): GraphSnapshot {
    this.sortEdgesById();
    const n = this.nodeIds.length;
    const e = this.edgeCount;
    const { edgeSource, edgeTarget, edgeMeta } = this;

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

    const m = this.metaedges.length;
    const metaStart = new Int32Array(m + 1);
    for (let i = 0; i < e; i++) metaStart[edgeMeta[i] + 1]++;
    for (let k = 0; k < m; k++) metaStart[k + 1] += metaStart[k];
    const metaFill = metaStart.slice(0, m);
    const metaEdges = new Int32Array(e);
    for (let i = 0; i < e; i++) metaEdges[metaFill[edgeMeta[i]]++] = i;

    return {
      signature,
      loadMs,
      nodeCount: n,
      edgeCount: e,
      nodeIds: this.nodeIds,
      nodeNames: this.nodeNames,
      nodeKind: this.nodeKind,
      kinds: this.kinds,
      nodeIndex: this.nodeIndex,
      metaedges: this.metaedges,
      metaedgeIndex: this.metaedgeIndex,
      metaedgeInfo: this.metaedgeInfo,
      // Copies, so that spare capacity left by a high estimate is released.
      edgeId: this.edgeId.slice(0, e),
      edgeSource: edgeSource.slice(0, e),
      edgeTarget: edgeTarget.slice(0, e),
      edgeMeta: edgeMeta.slice(0, e),
      incStart,
      incEdge,
      incNeighbor,
      incMeta,
      metaStart,
      metaEdges,
    };
  }

  /** COPY returns heap order, usually but not always id order; every list downstream relies on id order. */
  private sortEdgesById() {
    const e = this.edgeCount;
    let sorted = true;
    for (let i = 1; i < e && sorted; i++) sorted = this.edgeId[i - 1] < this.edgeId[i];
    if (sorted) return;
    const order = Array.from({ length: e }, (_, i) => i).sort((a, b) => this.edgeId[a] - this.edgeId[b]);
    const permute = <T extends Int32Array | Uint16Array>(a: T, make: (n: number) => T) => {
      const b = make(a.length);
      order.forEach((from, to) => (b[to] = a[from]));
      return b;
    };
    this.edgeId = permute(this.edgeId, (n) => new Int32Array(n));
    this.edgeSource = permute(this.edgeSource, (n) => new Int32Array(n));
    this.edgeTarget = permute(this.edgeTarget, (n) => new Int32Array(n));
    this.edgeMeta = permute(this.edgeMeta, (n) => new Uint16Array(n));
  }
}
