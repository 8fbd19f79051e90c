import { latestGraphImport } from './store';

/** The version changes only with a graph import; runs in between read it from memory. */
const TTL_MS = 10_000;
let cached: { at: number; version: Promise<string | null> } | null = null;

/** "<source> <version> (<checksum prefix>)" of the graph in use, stored on each run. */
export function currentKgVersion(): Promise<string | null> {
  if (!cached || Date.now() - cached.at > TTL_MS) cached = { at: Date.now(), version: latestGraphImport() };
  return cached.version;
}
