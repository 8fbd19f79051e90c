import fs from 'node:fs';
import zlib from 'node:zlib';
import { ImportError } from './errors';
import { throttled, type ProgressListener } from './progress';

export interface Line {
  /** 1-based. */
  number: number;
  text: string;
}

/**
 * The lines of a text file, gunzipped when it ends in .gz, without line
 * terminators (\n or \r\n). Splitting chunks by hand is several times faster
 * than readline on the million-line edge files.
 */
export async function* readLines(file: string, opts: { phase?: string; onProgress?: ProgressListener } = {}): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(file, opts)) {
    for (let i = 0; i < batch.lines.length; i++) yield { number: batch.first + i, text: batch.lines[i] };
  }
}

/** Consecutive lines of a file, the first of them numbered `first` (1-based). */
export interface LineBatch {
  first: number;
  lines: string[];
}

/**
 * The same lines a chunk at a time: for the files of millions of rows, where
 * an awaited step and an object per line cost more than reading the row.
 */
export async function* readLineBatches(file: string, opts: { phase?: string; onProgress?: ProgressListener } = {}): AsyncGenerator<LineBatch> {
  const totalBytes = fileSize(file);
  const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  let bytesRead = 0;
  raw.on('data', (chunk) => (bytesRead += chunk.length));
  const text = file.endsWith('.gz') ? raw.pipe(zlib.createGunzip()) : raw;
  text.setEncoding('utf8');
  raw.on('error', (e) => text.destroy(e));
  const progress = throttled(opts.onProgress);
  const report = (lines: number, done: boolean) => progress({ phase: opts.phase ?? 'read', file, lines, bytesRead, totalBytes, done });

  let number = 0;
  let rest = '';
  try {
    for await (const chunk of text as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
      yield { first: number + 1, lines };
      number += lines.length;
      report(number, false);
    }
  } catch (e) {
    throw new ImportError(file, undefined, `cannot read: ${(e as Error).message}`);
  } finally {
    // A consumer that stops early (a rejected line) leaves the file stream open otherwise: only gunzip is destroyed.
    raw.destroy();
  }
  if (rest) yield { first: ++number, lines: [stripCr(rest)] };
  report(number, true);
}

/**
 * The file's bytes (gunzipped when it ends in .gz) in chunks of about 1 MB
 * that end at a line break, the last one at the end of the file: for readers
 * that scan rows as bytes and decode only the cells they keep. `lines` tells
 * the progress report how many lines the reader has taken so far.
 */
export async function* readLineChunks(file: string, opts: { phase?: string; onProgress?: ProgressListener; lines: () => number }): AsyncGenerator<Buffer> {
  const totalBytes = fileSize(file);
  const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  let bytesRead = 0;
  raw.on('data', (chunk) => (bytesRead += chunk.length));
  const bytes = file.endsWith('.gz') ? raw.pipe(zlib.createGunzip()) : raw;
  raw.on('error', (e) => bytes.destroy(e));
  const progress = throttled(opts.onProgress);
  const report = (done: boolean) => progress({ phase: opts.phase ?? 'read', file, lines: opts.lines(), bytesRead, totalBytes, done });

  let rest: Buffer | null = null;
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      const last = chunk.lastIndexOf(10);
      if (last < 0) {
        rest = rest ? Buffer.concat([rest, chunk]) : chunk;
        continue;
      }
      yield rest ? Buffer.concat([rest, chunk.subarray(0, last + 1)]) : chunk.subarray(0, last + 1);
      rest = last + 1 < chunk.length ? chunk.subarray(last + 1) : null;
      report(false);
    }
  } catch (e) {
    throw new ImportError(file, undefined, `cannot read: ${(e as Error).message}`);
  } finally {
    raw.destroy();
  }
  if (rest) yield rest;
  report(true);
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

export function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    throw new ImportError(file, undefined, 'file not found');
  }
}

/**
 * What a file read whole may unpack to: a small .gz that expands without end
 * (a "zip bomb") is stopped there, never held in memory.
 */
export const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;

/** The whole file as text, gunzipped when it ends in .gz (refused past `maxBytes`, unpacked). */
export function readText(file: string, maxBytes = MAX_UNPACKED_BYTES): string {
  const tooLarge = () => new ImportError(file, undefined, `is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB unpacked (the limit)`);
  if (fileSize(file) > maxBytes) throw tooLarge();
  const bytes = fs.readFileSync(file);
  if (!file.endsWith('.gz')) return bytes.toString('utf8');
  try {
    return zlib.gunzipSync(bytes, { maxOutputLength: maxBytes }).toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw e;
  }
}
