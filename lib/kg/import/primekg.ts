import path from 'node:path';
import { ImportError } from './errors';
import { splitRow } from './delimited';
import type { GraphBuilder } from './graph-builder';
import { writeGraph, type GraphImportSummary } from './graph-writer';
import { readLineChunks } from './lines';
import type { ImportOptions } from './options';

export interface PrimeKgOptions extends ImportOptions {
  version?: string;
}

/** PrimeKG's `kg.csv` columns, as published (Chandak et al., Scientific Data 2023). */
export const PRIMEKG_COLUMNS = [
  'relation',
  'display_relation',
  'x_index',
  'x_id',
  'x_type',
  'x_name',
  'x_source',
  'y_index',
  'y_id',
  'y_type',
  'y_name',
  'y_source',
] as const;
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

/** One row's cells as byte ranges of `bytes`: the file's chunk itself, or a quoted row's cells re-encoded. */
interface Cells {
  bytes: Buffer;
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
  /** The first and last of these columns: the span of bytes that recognises the node. */
  first: number;
  last: number;
}

const COMMA = 44;
const QUOTE = 34;
const NEWLINE = 10;
const CR = 13;

/**
 * Reads the rows into the graph. Hot (8.1M rows): rows are read as bytes and
 * never decoded once their nodes and relation are known. A node is recognised
 * by its x_index/y_index: the bytes of its first row's cells (index, id, type,
 * name, source: adjacent columns) are kept, and a later row whose cells hold
 * the same bytes is that node. A row of kg.csv's column order whose relation
 * is the previous row's and whose nodes are known is recognised in one pass
 * over its bytes; anything else (a new node or relation, a quoted row, another
 * column order) is split into cells first, new cells decoded.
 */
class PrimeKgReader {
  private readonly cells: Cells = { bytes: Buffer.alloc(0), start: new Int32Array(PRIMEKG_COLUMNS.length), end: new Int32Array(PRIMEKG_COLUMNS.length) };
  private column = {} as Record<Column, number>;
  private x = {} as EndColumns;
  private y = {} as EndColumns;
  /** By PrimeKG index: the node's number + 1 (0: not seen), and where its first row's cells lie in `seenBytes`. */
  private nodeByIndex: Int32Array = new Int32Array(1 << 17);
  private seenAt: Int32Array = new Int32Array(1 << 17);
  private seenLength: Int32Array = new Int32Array(1 << 17);
  private seenBytes = Buffer.alloc(1 << 22);
  private seenUsed = 0;
  /**
   * The previous row's relation and display relation as kg.csv spells them
   * unquoted ("relation,display,"; rows come grouped by relation), and their
   * metaedge; empty when a cell holds a comma or a quote.
   */
  private lastRelation = Buffer.alloc(0);
  private lastMetaedge = -1;
  /** Whether the header lists kg.csv's columns in its order (rows can then be recognised in one pass). */
  private inOrder = false;
  /** Whether the current row was quoted (its cells then point into a copy, not the file's bytes). */
  private quoted = false;
  /** Where the node `knownNode` recognised ends. */
  private after = 0;
  private lines = 0;

  constructor(
    private readonly file: string,
    private readonly graph: GraphBuilder,
  ) {}

  async *rows(opts: ImportOptions): AsyncGenerator<void> {
    for await (const chunk of readLineChunks(this.file, { phase: 'primekg', onProgress: opts.onProgress, lines: () => this.lines })) {
      for (let from = 0; from < chunk.length;) {
        const newline = chunk.indexOf(NEWLINE, from);
        const next = newline < 0 ? chunk.length : newline + 1;
        let to = newline < 0 ? chunk.length : newline;
        if (to > from && chunk[to - 1] === CR) to--;
        const number = ++this.lines;
        if (number === 1) this.header(chunk.toString('utf8', from, to), 1);
        else if (to > from && (chunk[from] > 32 || chunk.toString('utf8', from, to).trim()) && !this.knownRow(chunk, from, to))
          this.row(chunk, from, to, number);
        from = next;
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
    this.inOrder = PRIMEKG_COLUMNS.every((name, i) => c[name] === i);
    this.x = endColumns(c.x_index, c.x_id, c.x_type, c.x_name, c.x_source);
    this.y = endColumns(c.y_index, c.y_id, c.y_type, c.y_name, c.y_source);
  }

  /**
   * The edge of a row that starts with the previous row's relation and then
   * holds the remembered cells of two known nodes, compared byte for byte in
   * one pass; false (nothing added) for any other row.
   */
  private knownRow(bytes: Buffer, from: number, to: number): boolean {
    const relation = this.lastRelation;
    if (!this.inOrder || !relation.length || from + relation.length > to) return false;
    for (let k = 0; k < relation.length; k++) if (bytes[from + k] !== relation[k]) return false;
    const x = this.knownNode(bytes, from + relation.length, to);
    if (x < 0 || this.after >= to || bytes[this.after] !== COMMA) return false;
    const y = this.knownNode(bytes, this.after + 1, to);
    if (y < 0 || this.after !== to || !this.joins(this.lastMetaedge, x, y)) return false;
    this.addEdge(x, this.lastMetaedge, y);
    return true;
  }

  /** The known node whose remembered cells start at `at` (setting `after` past them), or -1. */
  private knownNode(bytes: Buffer, at: number, to: number): number {
    let index = 0;
    let k = at;
    for (; k < to && k - at < 10; k++) {
      const d = bytes[k] - 48;
      if (d < 0 || d > 9) break;
      index = index * 10 + d;
    }
    if (k === at || index >= this.nodeByIndex.length || !this.nodeByIndex[index]) return -1;
    const length = this.seenLength[index];
    if (at + length > to) return -1;
    const seen = this.seenBytes;
    for (let j = 0, s = this.seenAt[index]; j < length; j++) if (bytes[at + j] !== seen[s + j]) return -1;
    this.after = at + length;
    return this.nodeByIndex[index] - 1;
  }

  private row(bytes: Buffer, from: number, to: number, number: number) {
    this.locate(bytes, from, to, number);
    const x = this.node(this.x, number);
    const y = this.node(this.y, number);
    this.addEdge(x, this.metaedge(x, y, number), y);
  }

  private addEdge(x: number, m: number, y: number) {
    const g = this.graph;
    const def = g.metaedges[m];
    // The metaedge's direction; same-kind relations (protein_protein) list both orders, folded by the ends' ids.
    const flip = g.nodeKinds[x] !== def.sourceKind || (def.sourceKind === def.targetKind && g.nodeIds[y] < g.nodeIds[x]);
    if (flip) g.edge(y, m, x);
    else g.edge(x, m, y);
  }

  /** Whether metaedge `m` joins the kinds of `x` and `y`, in either direction. */
  private joins(m: number, x: number, y: number): boolean {
    const g = this.graph;
    const def = g.metaedges[m];
    const [kx, ky] = [g.nodeKinds[x], g.nodeKinds[y]];
    return (kx === def.sourceKind && ky === def.targetKind) || (kx === def.targetKind && ky === def.sourceKind);
  }

  /** Fills `cells` with the row's cell ranges. */
  private locate(bytes: Buffer, from: number, to: number, number: number) {
    const { start, end } = this.cells;
    const last = start.length - 1;
    let cell = 0;
    start[0] = from;
    for (let k = from; k < to; k++) {
      const b = bytes[k];
      if (b === COMMA) {
        if (cell < last) {
          end[cell] = k;
          start[cell + 1] = k + 1;
        }
        cell++;
      } else if (b === QUOTE) {
        return this.locateQuoted(bytes.toString('utf8', from, to), number);
      }
    }
    if (cell !== last) throw this.columnCount(number, cell + 1);
    end[last] = to;
    this.cells.bytes = bytes;
    this.quoted = false;
  }

  /** A row with quotes: its cells decoded and joined again, unquoted, as the bytes the cells point into. */
  private locateQuoted(line: string, number: number) {
    const { start, end } = this.cells;
    const row = this.split(line, number);
    let at = 0;
    row.forEach((cell, i) => {
      start[i] = at;
      end[i] = at += Buffer.byteLength(cell);
    });
    this.cells.bytes = Buffer.from(row.join(''));
    this.quoted = true;
  }

  private node(end: EndColumns, number: number): number {
    const index = this.integer(end.index);
    if (index >= 0 && index < this.nodeByIndex.length && this.nodeByIndex[index] && this.isSeen(end, index)) return this.nodeByIndex[index] - 1;
    const [type, source, id, name] = [this.cell(end.type), this.cell(end.source), this.cell(end.id), this.cell(end.name)];
    if (!type || !id) throw this.fail(number, 'a node without a type or an id');
    const kind = PRIMEKG_KINDS[type]?.[0] ?? type;
    // A node per type, source and id ("Gene/Protein::NCBI:7124"); its name from the first row that names it.
    const node = this.graph.node(`${kind}::${source ? `${source}:` : ''}${id}`, name || id, kind);
    // Remembered as the file spells it: a quoted row's cells are a copy without their commas.
    if (index >= 0 && !this.quoted && !(index < this.nodeByIndex.length && this.nodeByIndex[index])) this.remember(end, index, node);
    return node;
  }

  /** Whether the row's cells for this end (index to source: adjacent in kg.csv) hold the bytes of index's first row. */
  private isSeen(end: EndColumns, index: number): boolean {
    const { bytes, start, end: stop } = this.cells;
    const from = start[end.first];
    const length = this.seenLength[index];
    if (stop[end.last] - from !== length) return false;
    const seen = this.seenBytes;
    for (let k = 0, at = this.seenAt[index]; k < length; k++) if (bytes[from + k] !== seen[at + k]) return false;
    return true;
  }

  private remember(end: EndColumns, index: number, node: number) {
    while (index >= this.nodeByIndex.length) {
      this.nodeByIndex = grown(this.nodeByIndex);
      this.seenAt = grown(this.seenAt);
      this.seenLength = grown(this.seenLength);
    }
    const [from, to] = [this.cells.start[end.first], this.cells.end[end.last]];
    while (this.seenUsed + to - from > this.seenBytes.length) {
      const bigger = Buffer.alloc(this.seenBytes.length * 2);
      this.seenBytes.copy(bigger);
      this.seenBytes = bigger;
    }
    this.cells.bytes.copy(this.seenBytes, this.seenUsed, from, to);
    this.nodeByIndex[index] = node + 1;
    this.seenAt[index] = this.seenUsed;
    this.seenLength[index] = to - from;
    this.seenUsed += to - from;
  }

  /** The row's metaedge (relation and display relation), checked against the kinds it joins. */
  private metaedge(x: number, y: number, number: number): number {
    const g = this.graph;
    const [kx, ky] = [g.nodeKinds[x], g.nodeKinds[y]];
    let m = this.lastMetaedge;
    if (m < 0 || !this.isLastRelation()) {
      const relation = this.cell(this.column.relation);
      if (!relation) throw this.fail(number, 'empty relation');
      const display = this.cell(this.column.display_relation) || relation;
      // The metaedge's direction: its kinds in name order (a fixed choice, so both rows of an edge meet).
      const [sourceKind, targetKind] = kx <= ky ? [kx, ky] : [ky, kx];
      const abbr = `${relation}:${display.replace(/\s+/g, '_')}`;
      m = g.metaedgeNumber(abbr) ?? g.metaedge({ abbr, sourceKind, verb: display, targetKind, directed: false });
      const spelled = `${this.raw(this.column.relation)},${this.raw(this.column.display_relation)},`;
      this.lastRelation = /^[^,"]*,[^,"]*,$/.test(spelled) ? Buffer.from(spelled) : Buffer.alloc(0);
      this.lastMetaedge = m;
    }
    const def = g.metaedges[m];
    if (!this.joins(m, x, y)) {
      throw this.fail(
        number,
        `relation '${this.cell(this.column.relation)}' (${this.cell(this.column.display_relation)}) joins ${kx} and ${ky} here, but ${def.sourceKind} and ${def.targetKind} before`,
      );
    }
    return m;
  }

  /** Whether the row's relation and display relation cells are the previous row's, compared as bytes. */
  private isLastRelation(): boolean {
    const { bytes, start, end } = this.cells;
    const last = this.lastRelation;
    const r = this.column.relation;
    const d = this.column.display_relation;
    const length = end[r] - start[r];
    if (length + end[d] - start[d] + 2 !== last.length || last[length] !== COMMA) return false;
    for (let k = 0; k < length; k++) if (bytes[start[r] + k] !== last[k]) return false;
    for (let k = 0, at = length + 1; k < end[d] - start[d]; k++) if (bytes[start[d] + k] !== last[at + k]) return false;
    return true;
  }

  /** Cell `i` as a non-negative integer (PrimeKG's node index), or -1. */
  private integer(i: number): number {
    const { bytes, start, end } = this.cells;
    if (end[i] === start[i] || end[i] - start[i] > 9) return -1;
    let n = 0;
    for (let k = start[i]; k < end[i]; k++) {
      const d = bytes[k] - 48;
      if (d < 0 || d > 9) return -1;
      n = n * 10 + d;
    }
    return n;
  }

  private raw(i: number): string {
    return this.cells.bytes.toString('utf8', this.cells.start[i], this.cells.end[i]);
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

function endColumns(index: number, id: number, type: number, name: number, source: number): EndColumns {
  return { index, id, type, name, source, first: Math.min(index, id, type, name, source), last: Math.max(index, id, type, name, source) };
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function abbreviationOf(kind: string): string {
  return Object.values(PRIMEKG_KINDS).find(([k]) => k === kind)?.[1] ?? kind;
}
