import { loadMetagraph, type LoadedMetagraph } from '@/lib/kg/loaded-metagraph';
import type { TripleData } from '@/lib/trace/types';

const verbsOf = new WeakMap<LoadedMetagraph, Map<string, string>>();

/** Metaedge verbs ("treats", "indication") from the loaded metagraph. */
export async function metaedgeVerbs(): Promise<Map<string, string>> {
  const graph = await loadMetagraph();
  let verbs = verbsOf.get(graph);
  if (!verbs) verbsOf.set(graph, (verbs = new Map(graph.metaedges.map((m) => [m.abbr, m.verb]))));
  return verbs;
}

/**
 * The sentence a model (or rule) sees for a triple: always in the metaedge's
 * direction with its verb, "Metformin (Compound) –treats→ type 2 diabetes
 * mellitus (Disease)", whichever end the retrieval started from.
 */
export function tripleText(t: TripleData): string {
  return `${t.sourceName} (${t.sourceKind}) –${t.verb}→ ${t.targetName} (${t.targetKind})`;
}
