import path from 'node:path';
import { ImportError } from './errors';
import { writeGraph, type GraphEdge, type GraphImportSummary, type GraphNode } from './graph-writer';
import { readLines } from './lines';
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
  const nodes = await readNodes(files.nodesFile, metagraph, opts.onProgress);
  const kindOf = new Map(nodes.map((n) => [n.id, n.kind]));
  return writeGraph(
    {
      source: files.source ?? 'hetionet',
      version: files.version ?? versionFromName(files.nodesFile),
      files: [files.nodesFile, files.edgesFile, metagraphFile],
      edges: readEdges(files.edgesFile, metagraph, kindOf, opts.onProgress),
      finish: () => ({ nodes, metagraph }),
    },
    opts,
  );
}

/** "hetionet-v1.0-nodes.tsv" → "v1.0". */
function versionFromName(file: string): string {
  return /v\d+(?:\.\d+)*/.exec(path.basename(file))?.[0] ?? 'unversioned';
}

async function readNodes(file: string, metagraph: Metagraph, onProgress?: ProgressListener): Promise<GraphNode[]> {
  const nodes: GraphNode[] = [];
  const seen = new Set<string>();
  for await (const { number, text } of readLines(file, { phase: 'nodes', onProgress })) {
    if (number === 1) {
      expectHeader(file, text, ['id', 'name', 'kind']);
      continue;
    }
    if (!text) continue;
    const cells = text.split('\t');
    const problem = nodeProblem(cells, metagraph, seen);
    if (problem) throw new ImportError(file, number, problem);
    const [id, name, kind] = cells;
    seen.add(id);
    nodes.push({ id, name, kind });
  }
  if (!nodes.length) throw new ImportError(file, undefined, 'no nodes');
  return nodes;
}

function nodeProblem(cells: string[], metagraph: Metagraph, seen: Set<string>): string | null {
  if (cells.length !== 3) return `expected 3 tab-separated columns (id, name, kind), found ${cells.length}`;
  const [id, name, kind] = cells;
  if (!metagraph.kinds.has(kind)) return `unknown kind '${kind}' (not in the metagraph)`;
  if (!id.startsWith(`${kind}::`) || id.length === kind.length + 2) return `id '${id}' is not of the form '${kind}::<identifier>'`;
  if (!name.trim()) return `node ${id} has an empty name`;
  if (seen.has(id)) return `duplicate node id '${id}'`;
  return null;
}

async function* readEdges(file: string, metagraph: Metagraph, kindOf: Map<string, string>, onProgress?: ProgressListener): AsyncGenerator<GraphEdge> {
  for await (const { number, text } of readLines(file, { phase: 'edges', onProgress })) {
    if (number === 1) {
      expectHeader(file, text, ['source', 'metaedge', 'target']);
      continue;
    }
    if (!text) continue;
    const cells = text.split('\t');
    const problem = edgeProblem(cells, metagraph, kindOf);
    if (problem) throw new ImportError(file, number, problem);
    yield { sourceId: cells[0], metaedge: cells[1], targetId: cells[2] };
  }
}

/** Why an edge row is invalid, or null. Hot (a million rows): no allocation on the happy path. */
function edgeProblem(cells: string[], metagraph: Metagraph, kindOf: Map<string, string>): string | null {
  if (cells.length !== 3) return `expected 3 tab-separated columns (source, metaedge, target), found ${cells.length}`;
  const [sourceId, metaedge, targetId] = cells;
  const def = metagraph.metaedges.get(metaedge);
  if (!def) return `unknown metaedge '${metaedge}' (not in the metagraph)`;
  const sourceKind = kindOf.get(sourceId);
  if (!sourceKind) return `source node '${sourceId}' is not in the nodes file`;
  const targetKind = kindOf.get(targetId);
  if (!targetKind) return `target node '${targetId}' is not in the nodes file`;
  if (sourceKind !== def.sourceKind || targetKind !== def.targetKind) {
    return `${metaedge} joins ${def.sourceKind} to ${def.targetKind}, not ${sourceKind} to ${targetKind}`;
  }
  return null;
}

function expectHeader(file: string, line: string, columns: string[]) {
  if (line.replace(/^\uFEFF/, '') !== columns.join('\t')) {
    throw new ImportError(file, 1, `expected the header '${columns.join('\\t')}', found '${line.slice(0, 80)}'`);
  }
}
