/**
 * Values computed once per key and kept, at most `max` of them: past that the memory starts again. For pure work
 * that a process repeats across runs (a text's words, a question's reading): kept values are shared by every caller,
 * so they are never changed by one. Starting again, rather than evicting one by one, keeps a lookup a single Map read.
 */
export class BoundedMemo<K, V> {
  private readonly kept = new Map<K, V>();

  constructor(readonly max: number) {}

  get(key: K, make: (key: K) => V): V {
    let value = this.kept.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.kept.size >= this.max) this.kept.clear();
      this.kept.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.kept.size;
  }
}
