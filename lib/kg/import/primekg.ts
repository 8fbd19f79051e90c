import path from 'node:path';
import { ImportError } from './errors';
import { splitRow } from './delimited';
import { writeGraph, type GraphEdge, type GraphImportSummary, type GraphNode } from './graph-writer';
import { readLines } from './lines';
import type { MetaedgeDef, Metagraph } from './metagraph';
import type { ImportOptions } from './options';

export interface PrimeKgOptions extends ImportOptions {
  version?: string;
}

/** PrimeKG's `kg.csv` columns, as published (Chandak et al., Scientific Data 2023). */
export const PRIMEKG_COLUMNS = ['relation', 'display_relation', 'x_index', 'x_id', 'x_type', 'x_name', 'x_source', 'y_index', 'y_id', 'y_type', 'y_name', 'y_source'] as const;
type Column = (typeof PRIMEKG_COLUMNS)[number];

/** PrimeKG's node types as metanodes (readable kind, abbreviation). Unknown types keep their own name. */
export const PRIMEKG_KINDS: Record<string, [kind: string, abbr: string]> = {
  'gene/protein': ['Gene/Protein', 'G'],
  drug: ['Drug', 'Dr'],
  disease: ['Disease', 'D'],
  'effect/phenotype': ['Effect/Phenotype', 'EP'],
  anatomy: ['Anatomy', 'A'],
  biological_process: ['Biological Process', 'BP'],
  molecular_function: ['Molecular Function', 'MF'],
  cellular_component: ['Cellular Component', 'CC'],
  pathway: ['Pathway', 'PW'],
  exposure: ['Exposure', 'Ex'],
};

/**
 * Loads PrimeKG's `kg.csv` (plain or .gz), replacing the current graph (all or
 * nothing). Each node type is a metanode; each relation with its display
 * relation, between its two kinds, is a metaedge (`drug_protein:target`,
 * "Drug – target – Gene/Protein"). PrimeKG lists every undirected edge in both
 * directions: the two rows fold into one edge, stored in the metaedge's direction.
 */
export async function importPrimeKg(file: string, opts: PrimeKgOptions = {}): Promise<GraphImportSummary> {
  const reader = new PrimeKgReader(file);
  return writeGraph(
    { source: 'primekg', version: opts.version ?? path.basename(file), files: [file], edges: reader.edges(opts), finish: () => reader.graph() },
    opts,
  );
}

class PrimeKgReader {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly metaedges = new Map<string, MetaedgeDef>();
  /** Undirected edges already taken, by metaedge and both ends (in the metaedge's direction). */
  private readonly seen = new Set<string>();

  constructor(private readonly file: string) {}

  async *edges(opts: ImportOptions): AsyncGenerator<GraphEdge> {
    let index: Record<Column, number> | null = null;
    for await (const { number, text } of readLines(this.file, { phase: 'primekg', onProgress: opts.onProgress })) {
      const fail = (reason: string) => new ImportError(this.file, number, reason);
      if (number === 1) {
        const names = cells(text.replace(/^\uFEFF/, ''), fail).map((c) => c.trim().toLowerCase());
        const missing = PRIMEKG_COLUMNS.filter((c) => !names.includes(c));
        if (missing.length) throw fail(`not PrimeKG's kg.csv: the header lacks ${missing.join(', ')}`);
        index = Object.fromEntries(PRIMEKG_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<Column, number>;
        continue;
      }
      if (!text.trim() || !index) continue;
      const row = cells(text, fail);
      const cell = (c: Column) => (row[index![c]] ?? '').trim();
      const relation = cell('relation');
      if (!relation) throw fail('empty relation');
      const x = this.node(cell('x_type'), cell('x_source'), cell('x_id'), cell('x_name'), fail);
      const y = this.node(cell('y_type'), cell('y_source'), cell('y_id'), cell('y_name'), fail);
      const display = cell('display_relation') || relation;
      // The metaedge's direction: its kinds in name order (a fixed choice, so both rows of an edge meet).
      const [source, target] = x.kind <= y.kind ? [x, y] : [y, x];
      const abbr = `${relation}:${display.replace(/\s+/g, '_')}`;
      if (!this.metaedges.has(abbr)) this.metaedges.set(abbr, { abbr, sourceKind: source.kind, verb: display, targetKind: target.kind, directed: false });
      else if (this.metaedges.get(abbr)!.sourceKind !== source.kind || this.metaedges.get(abbr)!.targetKind !== target.kind) {
        throw fail(`relation '${relation}' (${display}) joins ${x.kind} and ${y.kind} here, but ${this.metaedges.get(abbr)!.sourceKind} and ${this.metaedges.get(abbr)!.targetKind} before`);
      }
      // Same-kind relations (protein_protein) list both orders: fold them by the ends' ids.
      const [a, b] = source.kind === target.kind && y.id < x.id ? [y, x] : [source, target];
      const key = `${abbr}\u0000${a.id}\u0000${b.id}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      yield { sourceId: a.id, metaedge: abbr, targetId: b.id };
    }
    if (!this.metaedges.size) throw new ImportError(this.file, undefined, 'no edges');
  }

  graph(): { nodes: GraphNode[]; metagraph: Metagraph } {
    const nodes = [...this.nodes.values()];
    const kinds = new Map([...new Set(nodes.map((n) => n.kind))].sort().map((k) => [k, abbreviationOf(k)]));
    return { nodes, metagraph: { kinds, metaedges: this.metaedges } };
  }

  /** A node per type, source and id ("Gene/Protein::NCBI:7124"); its name from the first row that names it. */
  private node(type: string, source: string, id: string, name: string, fail: (reason: string) => ImportError): GraphNode {
    if (!type || !id) throw fail('a node without a type or an id');
    const kind = PRIMEKG_KINDS[type]?.[0] ?? type;
    const nodeId = `${kind}::${source ? `${source}:` : ''}${id}`;
    let node = this.nodes.get(nodeId);
    if (!node) {
      node = { id: nodeId, name: name || id, kind };
      this.nodes.set(nodeId, node);
    }
    return node;
  }
}

function abbreviationOf(kind: string): string {
  return Object.values(PRIMEKG_KINDS).find(([k]) => k === kind)?.[1] ?? kind;
}

function cells(line: string, fail: (reason: string) => ImportError): string[] {
  const row = splitRow(line, ',');
  if (!Array.isArray(row)) throw fail(row.error);
  if (row.length !== PRIMEKG_COLUMNS.length) throw fail(`expected ${PRIMEKG_COLUMNS.length} columns, found ${row.length}`);
  return row;
}
