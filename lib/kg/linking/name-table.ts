import { ALIAS_SCORE, type LinkCandidate, type Scope } from '../store/link-sql';
import { Column, HashIndex, KeyChains, SEPARATOR, split } from './columns';
import { readNameColumns } from './store';

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
  private readonly keys: KeyChains;
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
    this.keys = new KeyChains(entries, keyAt, (e) => e >= n && alias.node[e - n] < 0);
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
      for (let e = this.keys.first(key); e >= 0; e = this.keys.next(e)) {
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
