import { ALIAS_SCORE, type LinkCandidate, type Scope } from '../store/link-sql';
import { readNameColumns } from './store';

/** Joins a column's values in one text (no value holds it: names are single lines). */
const SEPARATOR = '\u001f';

/**
 * Every name and alias of the loaded graph in memory, for exact lookups (what exactCandidates asks the database):
 * a question asked for the first time then links without a round trip. Each column is one string of joined values
 * read by offsets, looked up through open-addressed hash tables, so 178k names cost no object each (about 15 MB for
 * Hetionet). Rows keep ctid order, the order an index lookup gives a key's rows, so a key's candidates come as the
 * database gives them: names, then aliases.
 */
export class NameTable {
  /** Entries below `nodes` are nodes (by name), the rest aliases: each key's first entry is in `keys`, `next` chains the others. */
  private readonly nodes: number;
  private readonly keys: HashIndex;
  private readonly next: Int32Array;
  /** The aliases grouped by node (`byNode` from `nodeStart`), each node's in table order. */
  private readonly nodeStart: Int32Array;
  private readonly byNode: Int32Array;

  private constructor(
    private readonly node: { normalised: Column; id: Column; name: Column; kind: Uint8Array; degree: Int32Array },
    private readonly alias: { normalised: Column; alias: Column; node: Int32Array; source: Uint8Array },
    private readonly kinds: string[],
    private readonly sources: string[],
    private readonly ids: HashIndex,
  ) {
    const n = (this.nodes = node.degree.length);
    const entries = n + alias.node.length;
    const keyAt = (e: number) => (e < n ? node.normalised : alias.normalised).range(e < n ? e : e - n);
    this.keys = new HashIndex(entries, keyAt);
    this.next = new Int32Array(entries).fill(-1);
    const tail = new Int32Array(entries).fill(-1);
    for (let e = 0; e < entries; e++) {
      if (e >= n && alias.node[e - n] < 0) continue;
      const head = this.keys.add(e);
      if (head !== e) this.next[tail[head]] = e;
      tail[head] = e;
    }
    // A counting sort of the aliases by node, stable.
    this.nodeStart = new Int32Array(n + 1);
    for (const at of alias.node) if (at >= 0) this.nodeStart[at + 1]++;
    for (let i = 0; i < n; i++) this.nodeStart[i + 1] += this.nodeStart[i];
    const fill = this.nodeStart.slice(0, n);
    this.byNode = new Int32Array(this.nodeStart[n]);
    alias.node.forEach((at, i) => at >= 0 && (this.byNode[fill[at]++] = i));
  }

  /** Reads every name and alias: one statement, each column one text (a few strings parse far cheaper than 178k rows). */
  static async read(): Promise<NameTable> {
    const c = await readNameColumns(SEPARATOR);
    const n = c.count;
    const kinds = [...new Set(c.kinds ?? [])];
    const aliasSources = split(c.alias_source);
    const sources = [...new Set(aliasSources)];
    if (kinds.length > 255 || sources.length > 255) throw new Error('a name table keeps at most 255 node kinds and 255 alias sources');
    const node = {
      normalised: Column.of(c.node_normalised, n),
      id: Column.of(c.node_id, n),
      name: Column.of(c.node_name, n),
      kind: Uint8Array.from(c.kinds ?? [], (k) => kinds.indexOf(k)),
      degree: Int32Array.from(c.degrees ?? []),
    };
    const aliasNormalised = Column.of(c.alias_normalised, aliasSources.length);
    const ids = new HashIndex(n, (i) => node.id.range(i));
    for (let i = 0; i < n; i++) ids.add(i);
    const sourceAt = new Map(sources.map((s, i) => [s, i]));
    const alias = {
      normalised: aliasNormalised,
      alias: Column.of(c.alias_alias, aliasSources.length),
      node: Int32Array.from(split(c.alias_node), (id) => ids.find(id)),
      source: Uint8Array.from(aliasSources, (s) => sourceAt.get(s)!),
    };
    return new NameTable(node, alias, kinds, sources, ids);
  }

  /** What exactCandidates gives for these keys: each key's nodes by name, then (with `aliases`) by alias, of `kinds` only. */
  candidates(keys: readonly string[], scope: Scope): LinkCandidate[] {
    const kinds = scope.kinds?.length ? new Set(scope.kinds) : null;
    const out: LinkCandidate[] = [];
    for (const key of keys) {
      for (let e = this.keys.find(key); e >= 0; e = this.next[e]) {
        const at = e < this.nodes ? e : this.alias.node[e - this.nodes];
        const kind = this.kinds[this.node.kind[at]];
        if (kinds && !kinds.has(kind)) continue;
        if (e >= this.nodes && !scope.aliases) break;
        const [id, name, degree] = [this.node.id.at(at), this.node.name.at(at), this.node.degree[at]];
        out.push(
          e < this.nodes
            ? { key, id, kind, name, degree, matched: name, method: 'exact', score: 1, source: null }
            : {
                key,
                id,
                kind,
                name,
                degree,
                matched: this.alias.alias.at(e - this.nodes),
                method: 'alias',
                score: ALIAS_SCORE,
                source: this.sources[this.alias.source[e - this.nodes]],
              },
        );
      }
    }
    return out;
  }

  /** What readAliasesOf gives: the normalised aliases of `source` per node, for these nodes (nodes with none left out). */
  aliasesOf(ids: readonly string[], source: string): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const wanted = this.sources.indexOf(source);
    for (const id of ids) {
      const at = this.ids.find(id);
      if (at < 0 || wanted < 0) continue;
      const names: string[] = [];
      for (let k = this.nodeStart[at]; k < this.nodeStart[at + 1]; k++)
        if (this.alias.source[this.byNode[k]] === wanted) names.push(this.alias.normalised.at(this.byNode[k]));
      if (names.length) out.set(id, names);
    }
    return out;
  }

  /**
   * What searchAliasesOf gives (lib/kg/store): per node, its `perNode` longest aliases of at least `minLength`
   * characters, longest first, then in the database's "C" order (UTF-8 bytes), nodes with none left out.
   */
  longestAliases(ids: readonly string[], { perNode, minLength }: { perNode: number; minLength: number }): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const id of new Set(ids)) {
      const at = this.ids.find(id);
      if (at < 0) continue;
      const aliases: { text: string; length: number; bytes: Buffer }[] = [];
      for (let k = this.nodeStart[at]; k < this.nodeStart[at + 1]; k++) {
        const text = this.alias.alias.at(this.byNode[k]);
        const length = [...text].length;
        if (length >= minLength) aliases.push({ text, length, bytes: Buffer.from(text) });
      }
      if (!aliases.length) continue;
      aliases.sort((a, b) => b.length - a.length || Buffer.compare(a.bytes, b.bytes));
      out.set(
        id,
        aliases.slice(0, perNode).map((a) => a.text),
      );
    }
    return out;
  }
}

function split(text: string | null): string[] {
  return text === null ? [] : text.split(SEPARATOR);
}

/** A column's values joined by SEPARATOR in one string, each read by its offsets. */
class Column {
  private constructor(
    readonly text: string,
    private readonly start: Int32Array,
  ) {}

  static of(text: string | null, count: number): Column {
    const start = new Int32Array(count + 1);
    const joined = text ?? '';
    let at = 0;
    for (let i = 1; i <= count; i++) {
      const end = joined.indexOf(SEPARATOR, at);
      at = end < 0 ? joined.length + 1 : end + 1;
      start[i] = at;
    }
    if (count && at !== joined.length + 1) throw new Error('a name table column holds another number of values than its table');
    return new Column(joined, start);
  }

  at(i: number): string {
    return this.text.slice(this.start[i], this.start[i + 1] - 1);
  }

  range(i: number): { text: string; from: number; to: number } {
    return { text: this.text, from: this.start[i], to: this.start[i + 1] - 1 };
  }
}

/** An open-addressed hash table of entries by the string each stands for (a range of a column), first entry kept. */
class HashIndex {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(
    entries: number,
    private readonly keyOf: (entry: number) => { text: string; from: number; to: number },
  ) {
    const size = 1 << Math.max(4, Math.ceil(Math.log2(entries * 2 + 1)));
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  /** Adds `entry` unless an entry with its string is there; returns the entry kept for that string. */
  add(entry: number): number {
    const { text, from, to } = this.keyOf(entry);
    for (let slot = hash(text, from, to) & this.mask; ; slot = (slot + 1) & this.mask) {
      const there = this.slots[slot];
      if (there < 0) return (this.slots[slot] = entry);
      const other = this.keyOf(there);
      if (other.to - other.from === to - from && other.text.startsWith(text.slice(from, to), other.from)) return there;
    }
  }

  /** The entry kept for `key`, or -1. */
  find(key: string): number {
    for (let slot = hash(key, 0, key.length) & this.mask; ; slot = (slot + 1) & this.mask) {
      const there = this.slots[slot];
      if (there < 0) return -1;
      const { text, from, to } = this.keyOf(there);
      if (to - from === key.length && text.startsWith(key, from)) return there;
    }
  }
}

/** FNV-1a over a string's range. */
function hash(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
