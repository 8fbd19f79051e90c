import { copyField } from './copy';
import type { MetaedgeDef } from './metagraph';

/**
 * A graph as a format reader builds it, in flat arrays: nodes and metaedges
 * get small integer numbers on first sight and edges are three typed arrays,
 * so a reader's per-row work is a few lookups and no allocation. Hot: PrimeKG
 * has 8.1M rows.
 */
export class GraphBuilder {
  readonly nodeIds: string[] = [];
  readonly nodeNames: string[] = [];
  readonly nodeKinds: string[] = [];
  readonly metaedges: MetaedgeDef[] = [];
  edgeCount = 0;
  edgeSource = new Int32Array(1 << 16);
  edgeTarget = new Int32Array(1 << 16);
  edgeMeta = new Int32Array(1 << 16);
  /** Node ids as COPY text (escaped): the same strings unless they hold a tab, newline or backslash. */
  private readonly copyIds: string[] = [];
  private idBytes: EncodedStrings | null = null;
  private readonly nodeNumbers = new Map<string, number>();
  private readonly metaedgeNumbers = new Map<string, number>();
  private readonly kindNames = new Map<string, string>();
  private readonly folded: EdgeSet | null;

  /** `fold`: an edge equal to one already added (same metaedge and ends) is dropped. */
  constructor(opts: { fold: boolean }) {
    this.folded = opts.fold ? new EdgeSet(this) : null;
  }

  get nodeCount(): number {
    return this.nodeIds.length;
  }

  nodeNumber(id: string): number | undefined {
    return this.nodeNumbers.get(id);
  }

  /** The node's number, adding it on first sight (the first name given wins). */
  node(id: string, name: string, kind: string): number {
    const known = this.nodeNumbers.get(id);
    if (known !== undefined) return known;
    const n = this.nodeIds.push(id) - 1;
    this.nodeNames.push(name);
    // One string per kind, so kind comparisons in readers' hot loops are reference checks.
    let interned = this.kindNames.get(kind);
    if (interned === undefined) this.kindNames.set(kind, (interned = kind));
    this.nodeKinds.push(interned);
    this.copyIds.push(copyField(id));
    this.nodeNumbers.set(id, n);
    return n;
  }

  metaedgeNumber(abbr: string): number | undefined {
    return this.metaedgeNumbers.get(abbr);
  }

  /** The metaedge's number, adding it on first sight; its kinds are interned like nodes'. */
  metaedge(def: MetaedgeDef): number {
    const known = this.metaedgeNumbers.get(def.abbr);
    if (known !== undefined) return known;
    const intern = (kind: string) => this.kindNames.get(kind) ?? (this.kindNames.set(kind, kind), kind);
    const m = this.metaedges.push({ ...def, sourceKind: intern(def.sourceKind), targetKind: intern(def.targetKind) }) - 1;
    this.metaedgeNumbers.set(def.abbr, m);
    return m;
  }

  /** Adds an edge; when folding, returns false for one already added. */
  edge(source: number, metaedge: number, target: number): boolean {
    if (this.edgeCount === this.edgeSource.length) this.grow();
    const i = this.edgeCount;
    this.edgeSource[i] = source;
    this.edgeTarget[i] = target;
    this.edgeMeta[i] = metaedge;
    if (this.folded && !this.folded.add(i)) return false;
    this.edgeCount++;
    return true;
  }

  /**
   * The edges at `order[from]`…`order[to - 1]` as the bytes of `COPY edges (id,
   * source_id, metaedge, target_id)` text; ids are places in `order` + 1. Hot
   * (millions of rows): written byte by byte from the ids' encoded forms, no
   * string per row.
   */
  edgeCopyBytes(order: Int32Array, from: number, to: number): Buffer {
    const ids = this.encodedIds();
    const metaedges = encode(this.metaedges.map((m) => copyField(m.abbr)));
    const { edgeSource, edgeTarget, edgeMeta } = this;
    let size = 0;
    for (let k = from; k < to; k++) {
      const i = order[k];
      size += 14 + ids.length(edgeSource[i]) + metaedges.length(edgeMeta[i]) + ids.length(edgeTarget[i]);
    }
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let k = from; k < to; k++) {
      const i = order[k];
      at = writeDigits(out, at, k + 1);
      out[at++] = TAB;
      at = ids.write(out, at, edgeSource[i]);
      out[at++] = TAB;
      at = metaedges.write(out, at, edgeMeta[i]);
      out[at++] = TAB;
      at = ids.write(out, at, edgeTarget[i]);
      out[at++] = NEWLINE;
    }
    return out.subarray(0, at);
  }

  /** The nodes' ids as COPY text, encoded once for every chunk of edges. */
  private encodedIds(): EncodedStrings {
    if (this.idBytes?.count !== this.copyIds.length) this.idBytes = encode(this.copyIds);
    return this.idBytes;
  }

  private grow() {
    const grown = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.edgeSource = grown(this.edgeSource);
    this.edgeTarget = grown(this.edgeTarget);
    this.edgeMeta = grown(this.edgeMeta);
  }
}

/**
 * The edges added so far, as a set by metaedge and ends: open addressing over
 * edge positions (the builder's arrays hold the keys), so a PrimeKG-size graph
 * folds in one pass without a string key per row.
 */
class EdgeSet {
  private slots = new Int32Array(1 << 16).fill(-1);
  private size = 0;

  constructor(private readonly graph: GraphBuilder) {}

  /** Adds the edge at position `i`; false when an equal edge is already in. */
  add(i: number): boolean {
    if (2 * (this.size + 1) > this.slots.length) this.rehash();
    const { edgeSource: s, edgeTarget: t, edgeMeta: m } = this.graph;
    const mask = this.slots.length - 1;
    for (let slot = this.hash(i) & mask; ; slot = (slot + 1) & mask) {
      const j = this.slots[slot];
      if (j < 0) {
        this.slots[slot] = i;
        this.size++;
        return true;
      }
      if (s[j] === s[i] && t[j] === t[i] && m[j] === m[i]) return false;
    }
  }

  private hash(i: number): number {
    const g = this.graph;
    let h = Math.imul(g.edgeSource[i], 0x9e3779b1) ^ Math.imul(g.edgeTarget[i] + 0x7f4a7c15, 0x85ebca6b) ^ Math.imul(g.edgeMeta[i] + 1, 0xc2b2ae35);
    h ^= h >>> 15;
    return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
  }

  private rehash() {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(-1);
    const mask = this.slots.length - 1;
    for (const i of old) {
      if (i < 0) continue;
      let slot = this.hash(i) & mask;
      while (this.slots[slot] >= 0) slot = (slot + 1) & mask;
      this.slots[slot] = i;
    }
  }
}

const TAB = 9;
const NEWLINE = 10;

/** Strings encoded as UTF-8 into one buffer, each written out by copying its bytes. */
interface EncodedStrings {
  count: number;
  length(i: number): number;
  write(out: Buffer, at: number, i: number): number;
}

function encode(strings: string[]): EncodedStrings {
  const bytes = Buffer.from(strings.join(''));
  const start = new Int32Array(strings.length + 1);
  strings.forEach((s, i) => (start[i + 1] = start[i] + Buffer.byteLength(s)));
  return {
    count: strings.length,
    length: (i) => start[i + 1] - start[i],
    write(out, at, i) {
      for (let b = start[i]; b < start[i + 1]; b++) out[at++] = bytes[b];
      return at;
    },
  };
}

/** Writes `n` (a positive integer, at most 10 digits) in decimal at `at`; returns the position after it. */
function writeDigits(out: Buffer, at: number, n: number): number {
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  for (let d = at + digits - 1; d >= at; d--) {
    out[d] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
  return at + digits;
}
