import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyValue = string | number | boolean | null | undefined;
type Rows = Iterable<CopyValue[]> | AsyncIterable<CopyValue[]>;

const CHUNK_CHARS = 1 << 16;

/**
 * Bulk-loads rows with `COPY … FROM STDIN` (text format). When `rows` throws
 * (an importer rejecting a line) the COPY is cancelled and the error rethrown,
 * leaving the transaction to be rolled back. `freeze` writes rows already
 * frozen, legal only for a table truncated in the same transaction.
 */
export async function copyInto(client: pg.PoolClient, table: string, columns: string[], rows: Rows, opts: { freeze?: boolean } = {}): Promise<void> {
  await copyText(client, table, columns, chunks(rows), opts);
}

/** The same with rows already written as COPY text (tab-separated fields, one row a line, escaped with `copyField`), as strings or bytes. */
export async function copyText(
  client: pg.PoolClient,
  table: string,
  columns: string[],
  text: Iterable<string | Buffer> | AsyncIterable<string | Buffer>,
  opts: { freeze?: boolean } = {},
): Promise<void> {
  const sql = `COPY ${table} (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN${opts.freeze ? ' WITH (FREEZE)' : ''}`;
  await pipeline(Readable.from(text), client.query(copyFrom(sql)));
}

async function* chunks(rows: Rows): AsyncGenerator<string> {
  let buffer = '';
  for await (const row of rows) {
    buffer += row.map(copyField).join('\t') + '\n';
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

/** A value as a field of COPY's text format: backslash, tab and line breaks escaped; null as \\N. */
export function copyField(v: CopyValue): string {
  if (v === null || v === undefined) return '\\N';
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : s;
}
