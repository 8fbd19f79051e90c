import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface InputFile {
  path: string;
  bytes: number;
  sha256: string;
  /**
   * Where and with what modification time the file was last hashed to this same content after its import: a file
   * copied or touched since (a restored machine, another checkout) is hashed once, not at every start.
   */
  seen?: { path: string; mtimeMs: number };
}

/** Describes each input file; an import record keeps these so a reload can tell whether anything changed. */
export async function describeFiles(files: string[]): Promise<InputFile[]> {
  return Promise.all(files.map(async (f) => ({ path: path.resolve(f), bytes: fs.statSync(f).size, sha256: await sha256File(f) })));
}

/** One checksum over all inputs, in order: the files' own hashes, so it is cheap to recompute from a record. */
export function combinedChecksum(files: InputFile[]): string {
  const h = crypto.createHash('sha256');
  for (const f of files) h.update(f.sha256);
  return h.digest('hex');
}

/**
 * A file's SHA-256, computed on a worker thread: hashing a 1 GB input costs
 * about 2 s of CPU, which would otherwise take turns with the import's own
 * reading on the main thread.
 */
function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASH_WORKER, { eval: true, workerData: file });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code && reject(new Error(`hashing ${file} stopped (exit code ${code})`)));
  });
}

/** The worker's code, plain CommonJS (it is evaluated, not compiled). */
const HASH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const hash = require('node:crypto').createHash('sha256');
require('node:fs').createReadStream(workerData)
  .on('data', (chunk) => hash.update(chunk))
  .on('error', (e) => { throw e; })
  .on('end', () => parentPort.postMessage(hash.digest('hex')));
`;
