import path from 'node:path';
import { ImportError } from './errors';
import { delimiterOf, splitRow, type Delimiter } from './delimited';
import { writeGraph, type GraphEdge, type GraphImportSummary, type GraphNode } from './graph-writer';
import { readLines } from './lines';
import { abbreviateKind, type MetaedgeDef, type Metagraph } from './metagraph';
import type { ImportOptions } from './options';

export interface TriplesOptions extends ImportOptions {
  source?: string;
  version?: string;
}

/** Kind given to heads and tails when the file has no head_kind / tail_kind. */
export const DEFAULT_KIND = 'Entity';

const COLUMNS = ['head', 'relation', 'tail', 'head_kind', 'tail_kind'] as const;
type Column = (typeof COLUMNS)[number];

/**
 * Loads a user's own graph from a TSV or CSV of triples (header: head, relation,
 * tail, and optionally head_kind, tail_kind), replacing the current graph.
 * Nodes are the distinct heads and tails ("Kind::name"); each relation becomes a
 * directed metaedge, and must join the same kinds wherever it is used.
 */
export async function importTriples(file: string, opts: TriplesOptions = {}): Promise<GraphImportSummary> {
  const reader = new TriplesReader(file);
  return writeGraph(
    {
      source: opts.source ?? 'triples',
      version: opts.version ?? path.basename(file),
      files: [file],
      edges: reader.edges(opts),
      finish: () => reader.graph(),
    },
    opts,
  );
}

class TriplesReader {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly relations = new Map<string, MetaedgeDef>();
  /** Where each relation was first seen, for the message when a later row contradicts its kinds. */
  private readonly firstSeen = new Map<string, number>();

  constructor(private readonly file: string) {}

  async *edges(opts: ImportOptions): AsyncGenerator<GraphEdge> {
    let delimiter: Delimiter = '\t';
    let index: Partial<Record<Column, number>> = {};
    let width = 0;
    for await (const { number, text } of readLines(this.file, { phase: 'triples', onProgress: opts.onProgress })) {
      const fail = (reason: string) => new ImportError(this.file, number, reason);
      if (number === 1) {
        const header = text.replace(/^\uFEFF/, '');
        delimiter = delimiterOf(this.file, header);
        const names = cellsOrThrow(splitRow(header, delimiter), fail).map((c) => c.trim().toLowerCase());
        index = Object.fromEntries(COLUMNS.flatMap((c) => (names.includes(c) ? [[c, names.indexOf(c)]] : [])));
        for (const required of ['head', 'relation', 'tail'] as const) {
          if (index[required] === undefined) throw fail(`header lacks the '${required}' column (found: ${names.join(', ')})`);
        }
        width = names.length;
        continue;
      }
      if (!text.trim()) continue;
      const cells = cellsOrThrow(splitRow(text, delimiter), fail);
      if (cells.length !== width) throw fail(`expected ${width} columns like the header, found ${cells.length}`);
      const cell = (c: Column) => (index[c] === undefined ? '' : cells[index[c]!].trim());
      const [head, relation, tail] = [cell('head'), cell('relation'), cell('tail')];
      if (!head || !relation || !tail) throw fail('head, relation and tail must all be non-empty');
      const sourceKind = cell('head_kind') || DEFAULT_KIND;
      const targetKind = cell('tail_kind') || DEFAULT_KIND;
      const known = this.relations.get(relation);
      if (!known) {
        this.relations.set(relation, { abbr: relation, sourceKind, verb: relation, targetKind, directed: true });
        this.firstSeen.set(relation, number);
      } else if (known.sourceKind !== sourceKind || known.targetKind !== targetKind) {
        throw fail(`relation '${relation}' joins ${sourceKind} to ${targetKind} here but ${known.sourceKind} to ${known.targetKind} on line ${this.firstSeen.get(relation)}`);
      }
      yield { sourceId: this.node(head, sourceKind), metaedge: relation, targetId: this.node(tail, targetKind) };
    }
    if (!this.relations.size) throw new ImportError(this.file, undefined, 'no triples');
  }

  graph(): { nodes: GraphNode[]; metagraph: Metagraph } {
    const nodes = [...this.nodes.values()];
    const kinds = new Map([...new Set(nodes.map((n) => n.kind))].sort().map((k) => [k, abbreviateKind(k)]));
    return { nodes, metagraph: { kinds, metaedges: this.relations } };
  }

  private node(name: string, kind: string): string {
    const id = `${kind}::${name}`;
    if (!this.nodes.has(id)) this.nodes.set(id, { id, name, kind });
    return id;
  }
}

function cellsOrThrow(cells: string[] | { error: string }, fail: (reason: string) => ImportError): string[] {
  if (!Array.isArray(cells)) throw fail(cells.error);
  return cells;
}
