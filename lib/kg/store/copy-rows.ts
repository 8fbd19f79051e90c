import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;

/** One COPY row as byte ranges of its fields; valid only during the callback. */
export interface ByteRow {
  bytes: Uint8Array;
  start: Int32Array;
  end: Int32Array;
}

/**
 * Streams `COPY (<select>) TO STDOUT` rows of `width` columns as byte ranges
 * of their fields in one reused record: no string or object per row, so the
 * caller can read millions of rows at the speed of the bytes. A row of
 * another width throws.
 */
export async function copyByteRows(client: pg.PoolClient, select: string, width: number, onRow: (row: ByteRow) => void): Promise<void> {
  const stream = client.query(copyTo(`COPY (${select}) TO STDOUT`));
  const row: ByteRow = { bytes: new Uint8Array(0), start: new Int32Array(width), end: new Int32Array(width) };
  let carry: Buffer | null = null;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const bytes: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    row.bytes = bytes;
    let rowStart = 0;
    let field = 0;
    row.start[0] = 0;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (c !== TAB && c !== NEWLINE) continue;
      if (field >= width) throw new Error(`COPY: a row of more than ${width} fields`);
      row.end[field++] = i;
      if (c === TAB) {
        row.start[field] = i + 1;
        continue;
      }
      if (field !== width) throw new Error(`COPY: a row of ${field} fields, not ${width}`);
      onRow(row);
      field = 0;
      rowStart = i + 1;
      row.start[0] = rowStart;
    }
    carry = rowStart < bytes.length ? bytes.subarray(rowStart) : null;
  }
  if (carry) throw new Error('COPY: the last row is cut short');
}

/** A field as text, COPY's escapes (backslash, tab, newline…) undone. */
export function fieldText(row: ByteRow, i: number): string {
  const text = Buffer.from(row.bytes.buffer, row.bytes.byteOffset + row.start[i], row.end[i] - row.start[i]).toString('utf8');
  return text.includes('\\') ? text.replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c) : text;
}

/** Whether a field holds a COPY escape, so that its bytes are not the value's. */
export function isEscaped(row: ByteRow, i: number): boolean {
  for (let k = row.start[i]; k < row.end[i]; k++) if (row.bytes[k] === BACKSLASH) return true;
  return false;
}

/** A field as a non-negative integer. */
export function fieldInteger(row: ByteRow, i: number): number {
  let n = 0;
  for (let k = row.start[i]; k < row.end[i]; k++) n = n * 10 + (row.bytes[k] - 48);
  return n;
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
