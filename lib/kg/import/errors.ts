import path from 'node:path';

/**
 * A malformed input file. Importers throw it at the first bad line, before
 * anything is committed, so the message always points at something to fix.
 */
export class ImportError extends Error {
  constructor(
    readonly file: string,
    /** 1-based line number; absent for whole-file problems (missing file, bad JSON). */
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${path.basename(file)}${line === undefined ? '' : `:${line}`}: ${reason}`);
    this.name = 'ImportError';
  }
}
