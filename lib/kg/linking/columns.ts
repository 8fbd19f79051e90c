import { OpenSlots } from '@/lib/base/open-slots';

/**
 * Tables of names held as columns: each column one string of joined values read by offsets, looked up through
 * open-addressed hash tables, so a hundred thousand names cost no object each (NameTable, the held spelling names).
 */

/** Joins a column's values in one text (no value holds it: names are single lines). */
export const SEPARATOR = '\u001f';

export function split(text: string | null): string[] {
  return text === null ? [] : text.split(SEPARATOR);
}

/** A column's values joined by SEPARATOR in one string, each read by its offsets. */
export class Column {
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
    if (count && at !== joined.length + 1) throw new Error('a column holds another number of values than its table');
    return new Column(joined, start);
  }

  at(i: number): string {
    return this.text.slice(this.start[i], this.start[i + 1] - 1);
  }

  range(i: number): { text: string; from: number; to: number } {
    return { text: this.text, from: this.start[i], to: this.start[i + 1] - 1 };
  }
}

/** Entries by the string each stands for (a range of a column), first entry kept. */
export class HashIndex {
  private readonly slots: OpenSlots;

  constructor(
    entries: number,
    private readonly keyOf: (entry: number) => { text: string; from: number; to: number },
  ) {
    this.slots = new OpenSlots(entries);
  }

  /** Adds `entry` unless an entry with its string is there; returns the entry kept for that string. */
  add(entry: number): number {
    const { text, from, to } = this.keyOf(entry);
    return this.slots.add(entry, hash(text, from, to), (there) => {
      const other = this.keyOf(there);
      return other.to - other.from === to - from && other.text.startsWith(text.slice(from, to), other.from);
    });
  }

  /** The entry kept for `key`, or -1. */
  find(key: string): number {
    const h = hash(key, 0, key.length);
    for (let probe = 0; ; probe++) {
      const there = this.slots.entryAt(h, probe);
      if (there < 0) return -1;
      const { text, from, to } = this.keyOf(there);
      if (to - from === key.length && text.startsWith(key, from)) return there;
    }
  }
}

/** Entries grouped by their key (a range of a column), each group in entry order: `first` its first entry, `next` the one after. */
export class KeyChains {
  private readonly keys: HashIndex;
  private readonly after: Int32Array;

  /** Entries `skip` names are in no group. */
  constructor(entries: number, keyOf: (entry: number) => { text: string; from: number; to: number }, skip?: (entry: number) => boolean) {
    this.keys = new HashIndex(entries, keyOf);
    this.after = new Int32Array(entries).fill(-1);
    const last = new Int32Array(entries).fill(-1);
    for (let e = 0; e < entries; e++) {
      if (skip?.(e)) continue;
      const head = this.keys.add(e);
      if (head !== e) this.after[last[head]] = e;
      last[head] = e;
    }
  }

  /** The first entry of `key`'s group, or -1. */
  first(key: string): number {
    return this.keys.find(key);
  }

  /** The entry after `entry` in its group, or -1. */
  next(entry: number): number {
    return this.after[entry];
  }
}

/** FNV-1a over a string's range. */
function hash(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
