import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface InputFile {
  path: string;
  bytes: number;
  sha256: string;
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

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = crypto.createHash('sha256');
    fs.createReadStream(file)
      .on('data', (c) => h.update(c))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}
