import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A gzip stream of fixed parts with a short text between them that differs
 * per use, always of one length (a page's CSP nonce): the parts are compressed
 * once, each ending on a full flush (byte-aligned), and each use writes its
 * text between them as stored blocks, then the trailer's CRC-32 and length.
 * One standard gzip member, as zlib.gzipSync would make, at the cost of a CRC
 * pass instead of a compression per use.
 *
 * Each part is compressed with the window the decoder will hold before it as
 * its dictionary (the parts before, the gaps as NUL bytes), so it compresses
 * as well as the whole would. The decoder holds the real text where the NULs
 * were: a match can never cover them while no part holds a NUL byte (when one
 * does, the parts are compressed without a dictionary).
 */
export interface GzipAround {
  /** The compressed parts; the last one ends the deflate stream. */
  parts: Buffer[];
  /** The parts as they are, for the CRC and for clients that do not take gzip. */
  plain: Buffer[];
  /** The byte length of the text between parts. */
  gap: number;
}

const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
const WINDOW = 32 * 1024;

export function gzipAround(plain: Buffer[], gap: number): GzipAround {
  if (gap > 0xffff) throw new Error('gzipAround: the text between parts is one stored block, at most 65,535 bytes');
  const last = plain.length - 1;
  const primed = plain.every((part) => !part.includes(0));
  let window = Buffer.alloc(0);
  const parts = plain.map((part, i) => {
    const finishFlush = i === last ? constants.Z_FINISH : constants.Z_FULL_FLUSH;
    const compressed = deflateRawSync(part, primed && window.length ? { finishFlush, dictionary: window } : { finishFlush });
    if (primed) window = Buffer.concat([window, part, Buffer.alloc(gap)]).subarray(-WINDOW);
    return compressed;
  });
  return { parts, plain, gap };
}

/** The gzip of the parts with `between` (of the length they were made for) in every gap. */
export function gzipWith({ parts, plain, gap }: GzipAround, between: string): Buffer {
  const text = Buffer.from(between);
  if (text.length !== gap) throw new Error(`gzipWith: the text between parts must be ${gap} bytes long, not ${text.length}`);
  // A stored block, not the last: its header bits (0, 00) padded to the byte, then LEN and its complement.
  const stored = Buffer.alloc(5 + text.length);
  stored.writeUInt16LE(text.length, 1);
  stored.writeUInt16LE(~text.length & 0xffff, 3);
  text.copy(stored, 5);
  let crc = 0;
  let size = 0;
  // zlib.crc32 of an empty buffer is taken as a fresh start in some Node builds: empty ones are skipped.
  const more = (bytes: Buffer) => {
    if (bytes.length) crc = crc32(bytes, crc);
    size += bytes.length;
  };
  const out: Buffer[] = [HEADER];
  plain.forEach((part, i) => {
    if (i > 0) {
      out.push(stored);
      more(text);
    }
    out.push(parts[i]);
    more(part);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  out.push(trailer);
  return Buffer.concat(out);
}

/** The parts as they are, with `between` in every gap. */
export function joinWith({ plain }: GzipAround, between: string): Buffer {
  const text = Buffer.from(between);
  return Buffer.concat(plain.flatMap((part, i) => (i ? [text, part] : [part])));
}
