import path from 'node:path';
import { ImportError } from './errors';
import { delimiterOf, splitRow, type Delimiter } from './delimited';
import type { GraphBuilder } from './graph-builder';
import { writeGraph, type GraphImportSummary } from './graph-writer';
import { readLines } from './lines';
import { abbreviateKind } from './metagraph';
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
  return writeGraph(
    {
      source: opts.source ?? 'triples',
      version: opts.version ?? path.basename(file),
      files: [file],
      fold: false,
      read: (graph) => readTriples(file, graph, opts),
      kinds: (graph) => new Map([...new Set(graph.nodeKinds)].sort().map((k) => [k, abbreviateKind(k)])),
    },
    opts,
  );
}

async function* readTriples(file: string, graph: GraphBuilder, opts: ImportOptions): AsyncGenerator<void> {
  /** Where each relation was first seen, for the message when a later row contradicts its kinds. */
  const firstSeen = new Map<string, number>();
  let delimiter: Delimiter = '\t';
  let index: Partial<Record<Column, number>> = {};
  let width = 0;
  for await (const { number, text } of readLines(file, { phase: 'triples', onProgress: opts.onProgress })) {
    const fail = (reason: string) => new ImportError(file, number, reason);
    if (number === 1) {
      const header = text.replace(/^\uFEFF/, '');
      delimiter = delimiterOf(file, header);
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
    let m = graph.metaedgeNumber(relation);
    if (m === undefined) {
      m = graph.metaedge({ abbr: relation, sourceKind, verb: relation, targetKind, directed: true });
      firstSeen.set(relation, number);
    } else if (graph.metaedges[m].sourceKind !== sourceKind || graph.metaedges[m].targetKind !== targetKind) {
      const known = graph.metaedges[m];
      throw fail(
        `relation '${relation}' joins ${sourceKind} to ${targetKind} here but ${known.sourceKind} to ${known.targetKind} on line ${firstSeen.get(relation)}`,
      );
    }
    graph.edge(graph.node(`${sourceKind}::${head}`, head, sourceKind), m, graph.node(`${targetKind}::${tail}`, tail, targetKind));
    if ((number & 4095) === 0) yield;
  }
  if (!graph.metaedges.length) throw new ImportError(file, undefined, 'no triples');
}

function cellsOrThrow(cells: string[] | { error: string }, fail: (reason: string) => ImportError): string[] {
  if (!Array.isArray(cells)) throw fail(cells.error);
  return cells;
}
