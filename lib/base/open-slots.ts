/**
 * Open addressing over entry numbers (linear probing, at least twice as many slots as entries): the one hash table
 * behind the tables that look keys up without a string or object per entry (the graph snapshot's ids by their UTF-8
 * bytes in place, lib/kg/query/byte-keys.ts; names by ranges of a joined column, lib/kg/linking/columns.ts). The
 * caller hashes a key, says which entry is the same when adding, and walks a key's chain itself when finding (no
 * callback on the hot path).
 */
export class OpenSlots {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(entries: number) {
    const size = 1 << Math.max(4, Math.ceil(Math.log2(entries * 2 + 1)));
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  /** Puts `entry` (hashed `h`) in a free slot, unless an entry `same` holds for is met first: returns that one, else `entry`. */
  add(entry: number, h: number, same?: (there: number) => boolean): number {
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const there = this.slots[slot];
      if (there < 0) return (this.slots[slot] = entry);
      if (same?.(there)) return there;
    }
  }

  /** The entry in the `probe`th slot (0, 1, …) of `h`'s chain, or -1 past its end: a hot lookup walks it without a callback. */
  entryAt(h: number, probe: number): number {
    return this.slots[(h + probe) & this.mask];
  }
}
