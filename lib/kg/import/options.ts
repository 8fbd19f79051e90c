import type pg from 'pg';
import type { ProgressListener } from './progress';

/** Shared by every importer: tests pass a pool on a scratch database; the CLI listens for progress. */
export interface ImportOptions {
  pool?: pg.Pool;
  onProgress?: ProgressListener;
}
