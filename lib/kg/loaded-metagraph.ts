import { readMetagraph, type MetaedgeInfo, type MetaedgeRow } from './relations';

/**
 * The metagraph of the graph in use, read: its kinds and its metaedges with
 * their senses and clauses. Pure code (the offline engine's rules, the question
 * generator's phrasing) reads it synchronously through `loadedMetagraph()`;
 * whatever runs a method or generates questions first awaits `loadMetagraph()`,
 * which reads the metaedges table again only when the graph was re-imported.
 */
export interface LoadedMetagraph {
  /** The kinds its metaedges join; null until a metagraph is in use (kinds are then named by their concepts' labels). */
  kinds: readonly string[] | null;
  metaedges: readonly MetaedgeInfo[];
  byAbbr: ReadonlyMap<string, MetaedgeInfo>;
}

let current: LoadedMetagraph = { kinds: null, metaedges: [], byAbbr: new Map() };
let loadedFor: string | null = null;
/**
 * The database modules, imported on first use: pure code that only reads the metagraph (the offline engine, unit tests) never
 * loads the database client. Kept: a dynamic import() per call costs a module-loader round (a run calls this for every KG step).
 */
let storeModules: Promise<[typeof import('./store'), typeof import('./version')]> | null = null;

export function loadedMetagraph(): LoadedMetagraph {
  return current;
}

/** Uses this metagraph until the next `setMetagraph` or `loadMetagraph`. */
export function setMetagraph(rows: readonly MetaedgeRow[]): LoadedMetagraph {
  const metaedges = readMetagraph(rows);
  const kinds = [...new Set(rows.flatMap((r) => [r.sourceKind, r.targetKind]))].sort();
  current = { kinds, metaedges, byAbbr: new Map(metaedges.map((m) => [m.abbr, m])) };
  return current;
}

/**
 * The database's metagraph, read again when the database or its graph import
 * changed: the metaedges the graph holds edges of. One declared but never
 * loaded (Hetionet's Gene Ontology relations in the subset) is no relation a
 * question can be read through, since no evidence could ever check it.
 */
export async function loadMetagraph(): Promise<LoadedMetagraph> {
  const [{ databaseKey, loadedMetaedges }, { currentKgVersion }] = await (storeModules ??= Promise.all([import('./store'), import('./version')]));
  const key = `${databaseKey()} ${await currentKgVersion()}`;
  if (key === loadedFor) return current;
  setMetagraph(await loadedMetaedges());
  loadedFor = key;
  return current;
}
