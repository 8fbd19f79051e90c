/**
 * The loaded graph's metagraph as the offline rules see it: which node kinds
 * each metaedge joins, whether its direction matters, and how to say it in
 * English (lib/kg/relations.ts reads these from the metagraph's own kinds and
 * verbs). The abbreviations are the KG's own, so evidence matches.
 */

import { loadedMetagraph, type LoadedMetagraph } from '@/lib/kg/loaded-metagraph';
import { categoryWeight, type RelationCategory, type RelationDomain } from '@/lib/kg/metaedge-categories';
import { isConcept, kindFor, kindNoun, sameKind, type KindConcept, type MetaedgeInfo } from '@/lib/kg/relations';

export type NodeKind = string;
export type { KindConcept, MetaedgeInfo };
export { sameKind };

/** The loaded graph's metaedges; when a question names no relation, the first joining two kinds is the preferred reading. */
export function metaedges(): readonly MetaedgeInfo[] {
  return loadedMetagraph().metaedges;
}

export function metaedgeInfo(abbr: string): MetaedgeInfo | undefined {
  return loadedMetagraph().byAbbr.get(abbr);
}

/** The loaded graph's kind for a concept ("gene": "Gene" in Hetionet, "Gene/Protein" in PrimeKG); null when it has none. */
export function kindOf(concept: KindConcept): NodeKind | null {
  return kindFor(concept, loadedMetagraph().kinds);
}

/** Whether a metaedge joins the two kinds (in either direction). */
export function joins(abbr: string, a: NodeKind, b: NodeKind): boolean {
  const m = metaedgeInfo(abbr);
  if (!m) return false;
  return (sameKind(m.source, a) && sameKind(m.target, b)) || (sameKind(m.source, b) && sameKind(m.target, a));
}

/** The kind at the far end of a metaedge from `kind`; null when the metaedge does not touch `kind`. */
export function otherEnd(abbr: string, kind: NodeKind): NodeKind | null {
  const m = metaedgeInfo(abbr);
  if (!m) return null;
  if (sameKind(m.source, kind)) return m.target;
  if (sameKind(m.target, kind)) return m.source;
  return null;
}

/** Metaedges joining two kinds, preferred reading first. */
export function metaedgesBetween(a: NodeKind, b: NodeKind): string[] {
  return metaedges()
    .filter((m) => joins(m.abbr, a, b))
    .map((m) => m.abbr);
}

const bySenses = new WeakMap<LoadedMetagraph, Map<string, string[]>>();

/**
 * The metaedges that mean any of `senses`, in the senses' order: "treat" is
 * every metaedge read as treating; "upregulate:anatomy" only those with an
 * anatomy end.
 */
export function metaedgesOfSenses(senses: readonly string[]): string[] {
  const graph = loadedMetagraph();
  let memo = bySenses.get(graph);
  if (!memo) bySenses.set(graph, (memo = new Map()));
  const key = senses.join(',');
  let found = memo.get(key);
  if (!found) {
    found = [];
    for (const spec of senses) {
      const [sense, concept] = spec.split(':') as [string, KindConcept | undefined];
      for (const m of graph.metaedges) {
        if (m.sense === sense && (!concept || isConcept(m.source, concept) || isConcept(m.target, concept)) && !found.includes(m.abbr)) found.push(m.abbr);
      }
    }
    memo.set(key, found);
  }
  return found;
}

/** "genes", "anatomical structures", "genes/proteins". */
export function kindPlural(kind: NodeKind): string {
  return kindNoun(kind, true);
}

/** ReGraM's category of a metaedge (from its verb); null for relations the table does not name. */
export function relationCategory(abbr: string): RelationCategory | null {
  return metaedgeInfo(abbr)?.category ?? null;
}

/** w_r for a metaedge in a domain; 1 (neutral) for uncategorised relations. */
export function relationWeight(abbr: string, domain: RelationDomain): number {
  return categoryWeight(relationCategory(abbr), domain);
}
