import { OpenSlots } from '@/lib/base/open-slots';

/**
 * Strings looked up by their UTF-8 bytes in place (a slice of a COPY
 * buffer), so that millions of lookups allocate no string: open addressing
 * over FNV-1a hashes, keys kept in one byte pool.
 */
export class ByteKeys {
  private readonly pool: Buffer;
  private readonly offset: Int32Array;
  private readonly hashes: Int32Array;
  private readonly slots: OpenSlots;

  /** Key i of `keys` is found as i; null keys are left out. */
  constructor(keys: (string | null)[]) {
    const encoded = keys.map((k) => Buffer.from(k ?? '', 'utf8'));
    this.pool = Buffer.concat(encoded);
    this.offset = new Int32Array(keys.length + 1);
    encoded.forEach((b, i) => (this.offset[i + 1] = this.offset[i] + b.length));
    this.hashes = new Int32Array(keys.length);
    this.slots = new OpenSlots(keys.length);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === null) continue;
      this.hashes[i] = hash(this.pool, this.offset[i], this.offset[i + 1]);
      this.slots.add(i, this.hashes[i]);
    }
  }

  /** The position of the key spelled by bytes[start, end), or -1. */
  find(bytes: Uint8Array, start: number, end: number): number {
    const h = hash(bytes, start, end);
    const { pool, offset, hashes, slots } = this;
    next: for (let probe = 0; ; probe++) {
      const i = slots.entryAt(h, probe);
      if (i < 0) return -1;
      if (hashes[i] !== h || offset[i + 1] - offset[i] !== end - start) continue;
      for (let a = offset[i], b = start; b < end; a++, b++) if (pool[a] !== bytes[b]) continue next;
      return i;
    }
  }
}

function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h ^ (h >>> 16);
}
