import { getPool } from '@/lib/db/client';
import type { TripleData } from '@/lib/trace/types';

let verbs: Promise<Map<string, string>> | null = null;

/** Metaedge verbs ("treats", "associates") from the imported metagraph, read once per process. */
export function metaedgeVerbs(): Promise<Map<string, string>> {
  verbs ??= getPool()
    .query<{ abbr: string; verb: string }>('select abbr, verb from metaedges')
    .then((r) => new Map(r.rows.map((row) => [row.abbr, row.verb])))
    .catch((e) => {
      verbs = null;
      throw e;
    });
  return verbs;
}

export interface GraphMetaedge {
  sourceKind: string;
  targetKind: string;
  /** "Drug – target – Gene/Protein" */
  description: string;
}

let metaedges: Promise<Map<string, GraphMetaedge>> | null = null;

/** The imported metagraph's metaedges by abbreviation, read once per process. */
export function graphMetaedges(): Promise<Map<string, GraphMetaedge>> {
  metaedges ??= getPool()
    .query<{ abbr: string } & GraphMetaedge>('select abbr, source_kind "sourceKind", target_kind "targetKind", description from metaedges')
    .then((r) => new Map(r.rows.map(({ abbr, ...m }) => [abbr, m])))
    .catch((e) => {
      metaedges = null;
      throw e;
    });
  return metaedges;
}

/**
 * The sentence a model (or rule) sees for a triple: always in the metaedge's
 * direction with its verb, "Metformin (Compound) –treats→ type 2 diabetes
 * mellitus (Disease)", whichever end the retrieval started from.
 */
export function tripleText(t: TripleData): string {
  return `${t.sourceName} (${t.sourceKind}) –${t.verb}→ ${t.targetName} (${t.targetKind})`;
}
