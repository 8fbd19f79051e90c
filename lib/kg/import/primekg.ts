import path from 'node:path';
import { ImportError } from './errors';
import { splitRow } from './delimited';
import type { GraphBuilder } from './graph-builder';
import { writeGraph, type GraphImportSummary } from './graph-writer';
import { readLineBatches } from './lines';
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
  return writeGraph(
    {
      source: 'primekg',
      version: opts.version ?? path.basename(file),
      files: [file],
      fold: true,
      read: (graph) => new PrimeKgReader(file, graph).rows(opts),
      kinds: (graph) => new Map([...new Set(graph.nodeKinds)].sort().map((k) => [k, abbreviationOf(k)])),
    },
    opts,
  );
}

/** One row's cells as ranges of `text`: the line itself, or a quoted row's cells joined. */
interface Cells {
  text: string;
  start: Int32Array;
  end: Int32Array;
}

/** The columns of one end of an edge. */
interface EndColumns {
  index: number;
  id: number;
  type: number;
  name: number;
  source: number;
}

/** A node as its first row wrote it, for matching later rows by their cells without slicing them. */
interface SeenNode {
  node: number;
  id: string;
  type: string;
  source: string;
}

/**
 * Reads the rows into the graph. Hot (8.1M rows): unquoted rows are split by
 * offsets, and a node is recognised by its x_index/y_index with its cells
 * compared in place, so a row allocates nothing once its nodes and relation
 * are known; anything else takes the general path.
 */
class PrimeKgReader {
  private readonly cells: Cells = { text: '', start: new Int32Array(PRIMEKG_COLUMNS.length), end: new Int32Array(PRIMEKG_COLUMNS.length) };
  private column = {} as Record<Column, number>;
  private x = {} as EndColumns;
  private y = {} as EndColumns;
  private readonly byIndex = new Map<number, SeenNode>();
  /** The relation of the previous row (rows come grouped by relation). */
  private lastRelation: { relation: string; display: string; metaedge: number } | null = null;

  constructor(
    private readonly file: string,
    private readonly graph: GraphBuilder,
  ) {}

  async *rows(opts: ImportOptions): AsyncGenerator<void> {
    for await (const { first, lines } of readLineBatches(this.file, { phase: 'primekg', onProgress: opts.onProgress })) {
      for (let i = 0; i < lines.length; i++) {
        const text = lines[i];
        if (first + i === 1) this.header(text, 1);
        else if (text && (text.charCodeAt(0) > 32 || text.trim())) this.row(text, first + i);
      }
      yield;
    }
    if (!this.graph.metaedges.length) throw new ImportError(this.file, undefined, 'no edges');
  }

  private header(text: string, number: number) {
    const names = this.split(text.replace(/^\uFEFF/, ''), number).map((c) => c.trim().toLowerCase());
    const missing = PRIMEKG_COLUMNS.filter((c) => !names.includes(c));
    if (missing.length) throw this.fail(number, `not PrimeKG's kg.csv: the header lacks ${missing.join(', ')}`);
    this.column = Object.fromEntries(PRIMEKG_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<Column, number>;
    const c = this.column;
    this.x = { index: c.x_index, id: c.x_id, type: c.x_type, name: c.x_name, source: c.x_source };
    this.y = { index: c.y_index, id: c.y_id, type: c.y_type, name: c.y_name, source: c.y_source };
  }

  private row(text: string, number: number) {
    this.locate(text, number);
    const g = this.graph;
    const x = this.node(this.x, number);
    const y = this.node(this.y, number);
    const m = this.metaedge(x, y, number);
    const def = g.metaedges[m];
    // The metaedge's direction; same-kind relations (protein_protein) list both orders, folded by the ends' ids.
    const flip = g.nodeKinds[x] !== def.sourceKind || (def.sourceKind === def.targetKind && g.nodeIds[y] < g.nodeIds[x]);
    if (flip) g.edge(y, m, x);
    else g.edge(x, m, y);
  }

  /** Fills `cells` with the row's cell ranges. */
  private locate(text: string, number: number) {
    const { start, end } = this.cells;
    if (text.includes('"')) {
      const row = this.split(text, number);
      let at = 0;
      row.forEach((cell, i) => {
        start[i] = at;
        end[i] = at += cell.length;
      });
      this.cells.text = row.join('');
      return;
    }
    this.cells.text = text;
    let from = 0;
    for (let i = 0; i < start.length; i++) {
      const comma = i === start.length - 1 ? -1 : text.indexOf(',', from);
      if (comma < 0 && i < start.length - 1) throw this.columnCount(number, i + 1);
      start[i] = from;
      end[i] = comma < 0 ? text.length : comma;
      from = comma + 1;
    }
    if (text.indexOf(',', start[start.length - 1]) >= 0) throw this.columnCount(number, text.split(',').length);
  }

  private node(end: EndColumns, number: number): number {
    const index = this.integer(end.index);
    const seen = index < 0 ? undefined : this.byIndex.get(index);
    if (seen && this.is(end.id, seen.id) && this.is(end.type, seen.type) && this.is(end.source, seen.source)) return seen.node;
    const [type, source, id, name] = [this.cell(end.type), this.cell(end.source), this.cell(end.id), this.cell(end.name)];
    if (!type || !id) throw this.fail(number, 'a node without a type or an id');
    const kind = PRIMEKG_KINDS[type]?.[0] ?? type;
    // A node per type, source and id ("Gene/Protein::NCBI:7124"); its name from the first row that names it.
    const node = this.graph.node(`${kind}::${source ? `${source}:` : ''}${id}`, name || id, kind);
    if (index >= 0 && !seen) this.byIndex.set(index, { node, id: this.raw(end.id), type: this.raw(end.type), source: this.raw(end.source) });
    return node;
  }

  /** The row's metaedge (relation and display relation), checked against the kinds it joins. */
  private metaedge(x: number, y: number, number: number): number {
    const g = this.graph;
    const [kx, ky] = [g.nodeKinds[x], g.nodeKinds[y]];
    const last = this.lastRelation;
    let m: number;
    if (last && this.is(this.column.relation, last.relation) && this.is(this.column.display_relation, last.display)) {
      m = last.metaedge;
    } else {
      const relation = this.cell(this.column.relation);
      if (!relation) throw this.fail(number, 'empty relation');
      const display = this.cell(this.column.display_relation) || relation;
      // The metaedge's direction: its kinds in name order (a fixed choice, so both rows of an edge meet).
      const [sourceKind, targetKind] = kx <= ky ? [kx, ky] : [ky, kx];
      const abbr = `${relation}:${display.replace(/\s+/g, '_')}`;
      m = g.metaedgeNumber(abbr) ?? g.metaedge({ abbr, sourceKind, verb: display, targetKind, directed: false });
      this.lastRelation = { relation: this.raw(this.column.relation), display: this.raw(this.column.display_relation), metaedge: m };
    }
    const def = g.metaedges[m];
    if ((kx !== def.sourceKind || ky !== def.targetKind) && (kx !== def.targetKind || ky !== def.sourceKind)) {
      throw this.fail(number, `relation '${this.cell(this.column.relation)}' (${this.cell(this.column.display_relation)}) joins ${kx} and ${ky} here, but ${def.sourceKind} and ${def.targetKind} before`);
    }
    return m;
  }

  /** Whether cell `i` is exactly `value`, compared in place. */
  private is(i: number, value: string): boolean {
    const { text, start, end } = this.cells;
    return end[i] - start[i] === value.length && text.startsWith(value, start[i]);
  }

  /** Cell `i` as a non-negative integer (PrimeKG's node index), or -1. */
  private integer(i: number): number {
    const { text, start, end } = this.cells;
    if (end[i] === start[i] || end[i] - start[i] > 9) return -1;
    let n = 0;
    for (let k = start[i]; k < end[i]; k++) {
      const d = text.charCodeAt(k) - 48;
      if (d < 0 || d > 9) return -1;
      n = n * 10 + d;
    }
    return n;
  }

  private raw(i: number): string {
    return this.cells.text.slice(this.cells.start[i], this.cells.end[i]);
  }

  private cell(i: number): string {
    return this.raw(i).trim();
  }

  private split(line: string, number: number): string[] {
    const row = splitRow(line, ',');
    if (!Array.isArray(row)) throw this.fail(number, row.error);
    if (row.length !== PRIMEKG_COLUMNS.length) throw this.columnCount(number, row.length);
    return row;
  }

  private columnCount(number: number, found: number): ImportError {
    return this.fail(number, `expected ${PRIMEKG_COLUMNS.length} columns, found ${found}`);
  }

  private fail(number: number, reason: string): ImportError {
    return new ImportError(this.file, number, reason);
  }
}

function abbreviationOf(kind: string): string {
  return Object.values(PRIMEKG_KINDS).find(([k]) => k === kind)?.[1] ?? kind;
}
