import { DEMO_SOURCE } from './demo/files';
import { latestGraphSource } from './store/stats';

/** The loaded graph as the UI and the import CLI name it, from its import record: "Hetionet v1.0", "demo graph (not Hetionet)", or another import's source and version. */
export function graphName(record: { source: string; version: string } | null): string {
  if (!record) return 'the loaded knowledge graph';
  if (record.source === DEMO_SOURCE) return 'demo graph (not Hetionet)';
  if (record.source === 'hetionet') return `Hetionet ${record.version}`;
  return `${record.source} ${record.version}`.trim();
}

/** The name of the graph the database holds now (its latest graph import); a generic name when the database does not answer. */
export async function loadedGraphName(): Promise<string> {
  try {
    return graphName(await latestGraphSource());
  } catch {
    return graphName(null);
  }
}
