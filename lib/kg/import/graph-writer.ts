import { normaliseName } from '../normalise';
import { categoryOf } from '../relations';
import { describeFiles } from './checksum';
import { copyInto } from './copy';
import { dropSecondaryIndexes, raiseMaintenanceMemory } from './indexes';
import { describeMetaedge, type Metagraph } from './metagraph';
import { inTransaction, poolOf, type ImportOptions } from './options';
import { recordImport, type ImportRecord } from './records';

export interface GraphNode {
  id: string;
  name: string;
  kind: string;
}

export interface GraphEdge {
  sourceId: string;
  metaedge: string;
  targetId: string;
}

/** A graph as a format reader delivers it: edges streamed (validated as they come), nodes and metagraph after. */
export interface GraphInput {
  source: string;
  version: string;
  files: string[];
  /** Throws ImportError at the first bad line, which rolls the whole import back. */
  edges: AsyncIterable<GraphEdge>;
  /** Called once `edges` is exhausted: formats that derive nodes from edges know them only then. */
  finish(): { nodes: GraphNode[]; metagraph: Metagraph };
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
  const files = await describeFiles(input.files);
  const phase = (name: string) => opts.onProgress?.({ phase: name, file: '', lines: 0, bytesRead: 0, totalBytes: 0, done: true });

  return inTransaction(poolOf(opts), async (client) => {
    await raiseMaintenanceMemory(client);
    await client.query(`create temp table kept_aliases on commit drop as select node_id, alias, normalised, source from node_aliases`);
    await client.query(`create temp table kept_profiles on commit drop as select node_id, source, text from entity_profiles`);
    const indexes = await dropSecondaryIndexes(client, REINDEXED_TABLES);
    await client.query(`truncate ${GRAPH_TABLES.join(', ')} restart identity`);

    const tally = new EdgeTally();
    await copyInto(client, 'edges', ['source_id', 'metaedge', 'target_id'], tally.count(input.edges), { freeze: true });
    const { nodes, metagraph } = input.finish();
    const perMetaedge = tally.metaedgeCounts();

    phase('nodes');
    await copyInto(
      client,
      'nodes',
      ['id', 'kind', 'name', 'source', 'normalised', 'degree'],
      nodes.map((n) => [n.id, n.kind, n.name, input.source, normaliseName(n.name), tally.degree(n.id)]),
      { freeze: true },
    );
    await copyInto(client, 'metanodes', ['kind', 'abbr'], [...metagraph.kinds]);
    await copyInto(
      client,
      'metaedges',
      ['abbr', 'source_kind', 'verb', 'target_kind', 'directed', 'description', 'category', 'edge_count'],
      [...metagraph.metaedges.values()].map((m) => [
        m.abbr, m.sourceKind, m.verb, m.targetKind, m.directed, describeMetaedge(m), categoryOf(m), perMetaedge.get(m.abbr) ?? 0,
      ]),
    );
    await copyInto(client, 'node_degrees', ['node_id', 'metaedge', 'direction', 'count'], tally.degreeRows(), { freeze: true });
    await client.query(`insert into node_aliases (node_id, alias, normalised, source)
                        select k.node_id, k.alias, k.normalised, k.source from kept_aliases k join nodes n on n.id = k.node_id`);
    await client.query(`insert into entity_profiles (node_id, source, text)
                        select k.node_id, k.source, k.text from kept_profiles k join nodes n on n.id = k.node_id`);

    phase('indexes');
    for (const def of indexes) await client.query(def);
    await client.query(`analyze ${REINDEXED_TABLES.join(', ')}`);

    const metaedgeCounts = Object.fromEntries([...perMetaedge].sort(([a], [b]) => a.localeCompare(b)));
    const kindCounts: Record<string, number> = {};
    for (const n of nodes) kindCounts[n.kind] = (kindCounts[n.kind] ?? 0) + 1;
    const durationMs = Date.now() - started;
    const record = await recordImport(client, {
      source: input.source,
      version: input.version,
      kind: 'graph',
      nodeCount: nodes.length,
      edgeCount: tally.edges,
      counts: { metaedges: metaedgeCounts, kinds: kindCounts },
      files,
      durationMs,
    });
    return { ...record, metaedgeCounts, edgesPerSecond: Math.round(tally.edges / (durationMs / 1000)) };
  });
}

/**
 * Counts edges per metaedge and per node, metaedge and side while they stream
 * past, so no GROUP BY pass is needed. Nodes and metaedges get small integer
 * indexes on first sight: a flat array of counts is several times faster here
 * than maps keyed by concatenated strings.
 */
class EdgeTally {
  edges = 0;
  private readonly nodeIndex = new Map<string, number>();
  private readonly metaedgeIndex = new Map<string, number>();
  private readonly nodeIds: string[] = [];
  private readonly metaedges: string[] = [];
  private readonly metaedgeTotals: number[] = [];
  /** Per node and metaedge, [out, in] side by side. */
  private readonly sideCounts: number[][] = [];

  async *count(edges: AsyncIterable<GraphEdge>): AsyncGenerator<string[]> {
    for await (const e of edges) {
      this.edges++;
      const m = this.indexOf(this.metaedgeIndex, this.metaedges, e.metaedge);
      this.metaedgeTotals[m] = (this.metaedgeTotals[m] ?? 0) + 1;
      this.countsOf(e.sourceId)[2 * m]++;
      this.countsOf(e.targetId)[2 * m + 1]++;
      yield [e.sourceId, e.metaedge, e.targetId];
    }
  }

  metaedgeCounts(): Map<string, number> {
    return new Map(this.metaedges.map((m, i) => [m, this.metaedgeTotals[i]]));
  }

  degree(nodeId: string): number {
    const i = this.nodeIndex.get(nodeId);
    return i === undefined ? 0 : this.sideCounts[i].reduce((a, b) => a + b, 0);
  }

  *degreeRows(): Generator<(string | number)[]> {
    for (let n = 0; n < this.nodeIds.length; n++) {
      const counts = this.sideCounts[n];
      for (let m = 0; m < this.metaedges.length; m++) {
        if (counts[2 * m]) yield [this.nodeIds[n], this.metaedges[m], 'out', counts[2 * m]];
        if (counts[2 * m + 1]) yield [this.nodeIds[n], this.metaedges[m], 'in', counts[2 * m + 1]];
      }
    }
  }

  private countsOf(nodeId: string): number[] {
    const i = this.indexOf(this.nodeIndex, this.nodeIds, nodeId);
    if (i === this.sideCounts.length) this.sideCounts.push([]);
    const counts = this.sideCounts[i];
    // Metaedges seen after this node was first counted extend its row.
    while (counts.length < 2 * this.metaedges.length) counts.push(0);
    return counts;
  }

  private indexOf(index: Map<string, number>, names: string[], name: string): number {
    let i = index.get(name);
    if (i === undefined) {
      i = names.push(name) - 1;
      index.set(name, i);
    }
    return i;
  }
}
