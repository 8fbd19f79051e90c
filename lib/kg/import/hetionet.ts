import path from 'node:path';
import { ImportError } from './errors';
import type { GraphBuilder } from './graph-builder';
import { writeGraph, type GraphImportSummary } from './graph-writer';
import { readLineBatches, readLines } from './lines';
import { findMetagraph, readMetagraph, type Metagraph } from './metagraph';
import type { ImportOptions } from './options';
import type { ProgressListener } from './progress';

export interface HetionetFiles {
  /** `hetionet-v1.0-nodes.tsv`: id, name, kind. */
  nodesFile: string;
  /** `*.sif` or `*.sif.gz`: source, metaedge, target. */
  edgesFile: string;
  /** `hetionet-v1.0-metagraph.json` or `metaedges.tsv`; looked for beside the nodes file when absent. */
  metagraphFile?: string;
  source?: string;
  version?: string;
}

/** Loads a graph in Hetionet's release formats (node TSV + SIF edges), replacing the current graph. */
export async function importHetionet(files: HetionetFiles, opts: ImportOptions = {}): Promise<GraphImportSummary> {
  const metagraphFile = files.metagraphFile ?? findMetagraph(path.dirname(files.nodesFile));
  if (!metagraphFile) {
    throw new ImportError(files.nodesFile, undefined, 'no metagraph beside it (hetionet-v1.0-metagraph.json or metaedges.tsv); name one explicitly');
  }
  const metagraph = readMetagraph(metagraphFile);
  return writeGraph(
    {
      source: files.source ?? 'hetionet',
      version: files.version ?? versionFromName(files.nodesFile),
      files: [files.nodesFile, files.edgesFile, metagraphFile],
      fold: false,
      async *read(graph) {
        for (const def of metagraph.metaedges.values()) graph.metaedge(def);
        await readNodes(files.nodesFile, metagraph, graph, opts.onProgress);
        yield* readEdges(files.edgesFile, graph, opts.onProgress);
      },
      kinds: () => metagraph.kinds,
    },
    opts,
  );
}

/** "hetionet-v1.0-nodes.tsv" → "v1.0". */
function versionFromName(file: string): string {
  return /v\d+(?:\.\d+)*/.exec(path.basename(file))?.[0] ?? 'unversioned';
}

async function readNodes(file: string, metagraph: Metagraph, graph: GraphBuilder, onProgress?: ProgressListener): Promise<void> {
  for await (const { number, text } of readLines(file, { phase: 'nodes', onProgress })) {
    if (number === 1) {
      expectHeader(file, text, ['id', 'name', 'kind']);
      continue;
    }
    if (!text) continue;
    const cells = text.split('\t');
    const problem = nodeProblem(cells, metagraph, graph);
    if (problem) throw new ImportError(file, number, problem);
    const [id, name, kind] = cells;
    graph.node(id, name, kind);
  }
  if (!graph.nodeCount) throw new ImportError(file, undefined, 'no nodes');
}

function nodeProblem(cells: string[], metagraph: Metagraph, graph: GraphBuilder): string | null {
  if (cells.length !== 3) return `expected 3 tab-separated columns (id, name, kind), found ${cells.length}`;
  const [id, name, kind] = cells;
  if (!metagraph.kinds.has(kind)) return `unknown kind '${kind}' (not in the metagraph)`;
  if (!id.startsWith(`${kind}::`) || id.length === kind.length + 2) return `id '${id}' is not of the form '${kind}::<identifier>'`;
  if (!name.trim()) return `node ${id} has an empty name`;
  if (graph.nodeNumber(id) !== undefined) return `duplicate node id '${id}'`;
  return null;
}

/** Adds the SIF's edges to `graph`, yielding after each chunk of lines. */
async function* readEdges(file: string, graph: GraphBuilder, onProgress?: ProgressListener): AsyncGenerator<void> {
  for await (const { first, lines } of readLineBatches(file, { phase: 'edges', onProgress })) {
    for (let i = 0; i < lines.length; i++) addEdge(file, first + i, lines[i], graph);
    yield;
  }
}

/** One SIF line, validated. Hot (a million rows): no allocation but the split. */
function addEdge(file: string, number: number, text: string, graph: GraphBuilder) {
  if (number === 1) {
    expectHeader(file, text, ['source', 'metaedge', 'target']);
    return;
  }
  if (!text) return;
  const cells = text.split('\t');
  if (cells.length !== 3) throw new ImportError(file, number, `expected 3 tab-separated columns (source, metaedge, target), found ${cells.length}`);
  const [sourceId, metaedge, targetId] = cells;
  const m = graph.metaedgeNumber(metaedge);
  if (m === undefined) throw new ImportError(file, number, `unknown metaedge '${metaedge}' (not in the metagraph)`);
  const s = graph.nodeNumber(sourceId);
  if (s === undefined) throw new ImportError(file, number, `source node '${sourceId}' is not in the nodes file`);
  const t = graph.nodeNumber(targetId);
  if (t === undefined) throw new ImportError(file, number, `target node '${targetId}' is not in the nodes file`);
  const def = graph.metaedges[m];
  if (graph.nodeKinds[s] !== def.sourceKind || graph.nodeKinds[t] !== def.targetKind) {
    throw new ImportError(file, number, `${metaedge} joins ${def.sourceKind} to ${def.targetKind}, not ${graph.nodeKinds[s]} to ${graph.nodeKinds[t]}`);
  }
  graph.edge(s, m, t);
}

function expectHeader(file: string, line: string, columns: string[]) {
  if (line.replace(/^\uFEFF/, '') !== columns.join('\t')) {
    throw new ImportError(file, 1, `expected the header '${columns.join('\\t')}', found '${line.slice(0, 80)}'`);
  }
}
