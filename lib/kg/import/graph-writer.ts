import { normaliseName } from '../normalise';
import { categoryOf } from '../relations';
import { describeFiles } from './checksum';
import { copyInto, copyText } from './copy';
import { GraphBuilder } from './graph-builder';
import { dropPrimaryKey, dropSecondaryIndexes, raiseMaintenanceMemory } from './indexes';
import { describeMetaedge } from './metagraph';
import { inTransaction, poolOf } from '../store/bulk';
import type { ImportOptions } from './options';
import { recordImport, type ImportRecord } from './records';

/** A graph as a format reader delivers it: read into a builder (validated as it goes), its kinds after. */
export interface GraphInput {
  source: string;
  version: string;
  files: string[];
  /** Fold edges listed more than once (PrimeKG lists each undirected edge in both directions). */
  fold: boolean;
  /**
   * Reads the input into `graph`, yielding every few thousand rows so that the
   * event loop turns (progress reports) while the rest is read. Throws
   * ImportError at the first bad line, which rolls the whole import back.
   */
  read(graph: GraphBuilder): AsyncIterable<unknown>;
  /** Called once `read` is done: the node kinds and their abbreviations. */
  kinds(graph: GraphBuilder): Map<string, string>;
}

export interface GraphImportSummary extends ImportRecord {
  metaedgeCounts: Record<string, number>;
  edgesPerSecond: number;
}

const GRAPH_TABLES = ['edges', 'node_degrees', 'nodes', 'node_aliases', 'entity_profiles', 'metaedges', 'metanodes'];
/**
 * Their secondary indexes are rebuilt once after the load: much faster than
 * maintaining them row by row (aliases and profiles are reloaded too, when kept).
 */
const REINDEXED_TABLES = ['edges', 'nodes', 'node_degrees', 'node_aliases', 'entity_profiles'];

/**
 * Replaces the whole graph in one transaction: readers see the old graph until
 * the commit, and any error (a bad line included) leaves it untouched.
 * Aliases and profiles of nodes that survive the replacement are kept.
 */
export async function writeGraph(input: GraphInput, opts: ImportOptions = {}): Promise<GraphImportSummary> {
  const started = Date.now();
  // Hashed alongside the import (in the event loop's idle time: COPY backpressure, index builds), needed only for the record.
  const hashing = describeFiles(input.files);
  hashing.catch(() => undefined);
  const phase = (name: string) => opts.onProgress?.({ phase: name, file: '', lines: 0, bytesRead: 0, totalBytes: 0, done: true });

  return inTransaction(poolOf(opts), async (client) => {
    await raiseMaintenanceMemory(client);
    await client.query(`create temp table kept_aliases on commit drop as select node_id, alias, normalised, source from node_aliases`);
    await client.query(`create temp table kept_profiles on commit drop as select node_id, source, text from entity_profiles`);
    const indexes = await dropSecondaryIndexes(client, REINDEXED_TABLES);
    await client.query(`truncate ${GRAPH_TABLES.join(', ')} restart identity`);

    const graph = new GraphBuilder({ fold: input.fold });
    for await (const _ of input.read(graph)) {
      // Between chunks of rows the event loop turns: progress reports, the files' hashing.
    }

    phase('edges');
    const byId = [...graph.nodeIds.keys()].sort((a, b) => compareIds(graph.nodeIds[a], graph.nodeIds[b]));
    const metaedgeOrder = [...graph.metaedges.keys()].sort((a, b) => compareIds(graph.metaedges[a].abbr, graph.metaedges[b].abbr));
    const edgeKey = await dropPrimaryKey(client, 'edges');
    await copyText(client, 'edges', ['id', 'source_id', 'metaedge', 'target_id'], edgeText(graph, sourceOrder(graph, byId, metaedgeOrder)), { freeze: true });
    await client.query(edgeKey);
    // Ids were written with the rows (their positions in that order): the sequence goes on after them.
    await client.query(`select setval(pg_get_serial_sequence('edges', 'id'), greatest($1::int, 1), $1::int > 0)`, [graph.edgeCount]);
    const counts = countSides(graph, metaedgeOrder);

    phase('nodes');
    await copyInto(
      client,
      'nodes',
      ['id', 'kind', 'name', 'source', 'normalised', 'degree'],
      byId.map((n) => [graph.nodeIds[n], graph.nodeKinds[n], graph.nodeNames[n], input.source, normaliseName(graph.nodeNames[n]), counts.nodeDegree[n]]),
      { freeze: true },
    );
    await copyInto(client, 'metanodes', ['kind', 'abbr'], [...input.kinds(graph)]);
    await copyInto(
      client,
      'metaedges',
      ['abbr', 'source_kind', 'verb', 'target_kind', 'directed', 'description', 'category', 'edge_count'],
      graph.metaedges.map((m, i) => [m.abbr, m.sourceKind, m.verb, m.targetKind, m.directed, describeMetaedge(m), categoryOf(m), counts.metaedgeCount[i]]),
    );
    await copyInto(client, 'node_degrees', ['node_id', 'metaedge', 'direction', 'count'], counts.sideRows(byId), { freeze: true });
    await client.query(`insert into node_aliases (node_id, alias, normalised, source)
                        select k.node_id, k.alias, k.normalised, k.source from kept_aliases k join nodes n on n.id = k.node_id`);
    await client.query(`insert into entity_profiles (node_id, source, text)
                        select k.node_id, k.source, k.text from kept_profiles k join nodes n on n.id = k.node_id`);

    phase('indexes');
    for (const def of indexes) await client.query(def);
    await client.query(`analyze ${REINDEXED_TABLES.join(', ')}`);

    const metaedgeCounts = Object.fromEntries(
      graph.metaedges.flatMap((m, i) => (counts.metaedgeCount[i] ? [[m.abbr, counts.metaedgeCount[i]] as const] : [])).sort(([a], [b]) => a.localeCompare(b)),
    );
    const kindCounts: Record<string, number> = {};
    for (const kind of graph.nodeKinds) kindCounts[kind] = (kindCounts[kind] ?? 0) + 1;
    const files = await hashing;
    const durationMs = Date.now() - started;
    const record = await recordImport(client, {
      source: input.source,
      version: input.version,
      kind: 'graph',
      nodeCount: graph.nodeCount,
      edgeCount: graph.edgeCount,
      counts: { metaedges: metaedgeCounts, kinds: kindCounts },
      files,
      durationMs,
    });
    return { ...record, metaedgeCounts, edgesPerSecond: Math.round(graph.edgeCount / (durationMs / 1000)) };
  });
}

/** The edges in `order` as COPY text, in chunks of bytes. */
function* edgeText(graph: GraphBuilder, order: Int32Array): Generator<Buffer> {
  for (let from = 0; from < order.length; from += EDGES_PER_CHUNK) yield graph.edgeCopyBytes(order, from, Math.min(order.length, from + EDGES_PER_CHUNK));
}

const EDGES_PER_CHUNK = 4096;

/**
 * The edges' positions by source id, then metaedge (byte order, the
 * (source_id, metaedge) index's): rows COPYed in this order let PostgreSQL
 * build that index from input it finds already sorted instead of sorting
 * millions of keys. Two stable counting sorts: by metaedge, then by source.
 */
function sourceOrder(graph: GraphBuilder, byId: number[], metaedgeOrder: number[]): Int32Array {
  const { edgeCount: e, edgeSource, edgeMeta } = graph;
  const nodeRank = new Int32Array(graph.nodeCount);
  byId.forEach((v, rank) => (nodeRank[v] = rank));
  const metaedgeRank = new Int32Array(graph.metaedges.length);
  metaedgeOrder.forEach((m, rank) => (metaedgeRank[m] = rank));
  const byMetaedge = countingSort(
    e,
    (i) => metaedgeRank[edgeMeta[i]],
    metaedgeOrder.length,
    (k) => k,
  );
  return countingSort(
    e,
    (i) => nodeRank[edgeSource[i]],
    graph.nodeCount,
    (k) => byMetaedge[k],
  );
}

/** The items `at(0)`…`at(n - 1)` ordered by `key` (0 … buckets - 1), ties in their order. */
function countingSort(n: number, key: (item: number) => number, buckets: number, at: (k: number) => number): Int32Array {
  const start = new Int32Array(buckets + 1);
  for (let k = 0; k < n; k++) start[key(at(k)) + 1]++;
  for (let b = 0; b < buckets; b++) start[b + 1] += start[b];
  const sorted = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const item = at(k);
    sorted[start[key(item)]++] = item;
  }
  return sorted;
}

/** Byte order for ASCII ids, close to the database's: rows sent in index order append to the index instead of splitting pages. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Edges per metaedge, per node, and per node, metaedge and side (node_degrees),
 * counted once the graph is read: a counting sort of the edges' ends by node,
 * then one small tally per node.
 */
function countSides(graph: GraphBuilder, metaedgeOrder: number[]) {
  const { nodeCount: n, edgeCount: e, edgeSource, edgeTarget, edgeMeta } = graph;
  const m = graph.metaedges.length;
  const metaedgeCount = new Int32Array(m);
  const nodeDegree = new Int32Array(n);
  for (let i = 0; i < e; i++) {
    metaedgeCount[edgeMeta[i]]++;
    nodeDegree[edgeSource[i]]++;
    nodeDegree[edgeTarget[i]]++;
  }
  // Each end as metaedge·2 + side (0 = in, 1 = out), grouped by node.
  const start = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) start[v + 1] = start[v] + nodeDegree[v];
  const fill = start.slice(0, n);
  const ends = new Int32Array(2 * e);
  for (let i = 0; i < e; i++) {
    ends[fill[edgeSource[i]]++] = 2 * edgeMeta[i] + 1;
    ends[fill[edgeTarget[i]]++] = 2 * edgeMeta[i];
  }
  return {
    metaedgeCount,
    nodeDegree,
    /** node_degrees rows for the nodes in the order given, each node's by metaedge and side. */
    *sideRows(nodes: number[]): Generator<(string | number)[]> {
      const tally = new Int32Array(2 * m);
      for (const v of nodes) {
        for (let k = start[v]; k < start[v + 1]; k++) tally[ends[k]]++;
        for (const me of metaedgeOrder) {
          const abbr = graph.metaedges[me].abbr;
          if (tally[2 * me]) yield [graph.nodeIds[v], abbr, 'in', tally[2 * me]];
          if (tally[2 * me + 1]) yield [graph.nodeIds[v], abbr, 'out', tally[2 * me + 1]];
          tally[2 * me] = tally[2 * me + 1] = 0;
        }
      }
    },
  };
}
