import type { EvidenceBundle, EvidenceCheck, EvidenceSet, EvidenceTriple } from '@/lib/llm/offline/evidence';
import { joins, metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import type { Passage } from '@/lib/llm/offline/passages';
import { normalise } from '@/lib/llm/offline/text';
import type { TripleData } from '@/lib/trace/types';
import type { Source } from './plan';
import type { Unit, UnitEntity } from './units';

/**
 * The refined evidence graph E*_q (RefineEvidenceGraph / MergeAliasProvenance):
 * the selected units' entities and relations, aliases merged, duplicates
 * collapsed, every node and edge carrying the sources that state it. A text
 * unit's relation becomes a 'text' edge, or corroborates the KG edge it
 * restates; it never becomes a KG edge.
 */

export interface GraphNode extends UnitEntity {
  sources: Source[];
  /** How the node was written: KG name, question mentions, aliases found in text. */
  surfaces: string[];
  units: string[];
}

export interface GraphEdge {
  key: string;
  sourceId: string;
  metaedge: string;
  targetId: string;
  origin: 'kg' | 'text';
  sources: Source[];
  /** KG path records (kg edges) or text unit records (text edges) that state it. */
  evidenceIds: string[];
  corroboratedBy: { unitId: string; how: 'predicate' | 'co-mention' }[];
}

export interface GraphPath {
  id: string;
  unitId: string;
  text: string;
  edgeKeys: string[];
  /** Text restates or co-mentions at least one of its edges. */
  corroborated: boolean;
}

export interface GraphUnit {
  id: string;
  source: Source;
  text: string;
  negated: boolean;
  entityIds: string[];
  /** What an answer cites for this unit. */
  evidenceIds: string[];
}

export interface RefinedGraph {
  aliasMerging: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  paths: GraphPath[];
  units: GraphUnit[];
  merges: { into: string; from: string; reason: string }[];
  /** Edges stated more than once that were collapsed into one. */
  duplicatesCollapsed: number;
  /** Pairs whose own edges were read whole and held none of the asked relation (their ids in the graph's node ids). */
  checks: EvidenceCheck[];
  /** Aid `answer-set` (none with the aids off): the question's complete answer sets, beside the graph. */
  sets?: AnswerSet[];
}

/** A complete answer set (aid) with the edges joining its members to its anchors along their chains. */
export type AnswerSet = EvidenceSet & { triples: TripleData[] };

const edgeKey = (sourceId: string, metaedge: string, targetId: string) => `${sourceId}|${metaedge}|${targetId}`;

export function refineGraph(selected: Unit[], opts: { mergeAliases: boolean; checks?: EvidenceCheck[] } = { mergeAliases: true }): RefinedGraph {
  const nodes = new Map<string, GraphNode>();
  const merges: RefinedGraph['merges'] = [];
  const canonical = new Map<string, string>();
  // Every triple's two ends pass here: each kind and name is normalised once.
  const nameKeys = new Map<string, string>();
  const nameKey = (e: UnitEntity): string => {
    const raw = `${e.kind}\n${e.name}`;
    let key = nameKeys.get(raw);
    if (key === undefined) nameKeys.set(raw, (key = `${normalise(e.kind)}|${normalise(e.name)}`));
    return key;
  };
  /** One node per kind and normalised name: alias ids fold into the first seen (without alias merging, one node per id). */
  const nodeFor = (e: UnitEntity, source: Source, unitId: string, surface?: string): GraphNode => {
    const byName = opts.mergeAliases ? nameKey(e) : e.nodeId;
    const id = canonical.get(e.nodeId) ?? canonical.get(byName) ?? e.nodeId;
    if (id !== e.nodeId && !canonical.has(e.nodeId)) merges.push({ into: id, from: e.nodeId, reason: `same kind and normalised name '${normalise(e.name)}'` });
    canonical.set(e.nodeId, id);
    canonical.set(byName, id);
    const node = nodes.get(id) ?? { nodeId: id, name: e.name, kind: e.kind, sources: [], surfaces: [e.name], units: [] };
    add(node.sources, source);
    add(node.units, unitId);
    if (surface) add(node.surfaces, surface);
    nodes.set(id, node);
    return node;
  };

  const edges = new Map<string, GraphEdge>();
  let duplicatesCollapsed = 0;
  const paths: GraphPath[] = [];
  for (const unit of selected.filter((u) => u.source === 'kg')) {
    for (const path of unit.paths) {
      const keys: string[] = [];
      for (const t of path.triples) {
        const s = nodeFor({ nodeId: t.sourceId, name: t.sourceName, kind: t.sourceKind }, 'kg', unit.id);
        const o = nodeFor({ nodeId: t.targetId, name: t.targetName, kind: t.targetKind }, 'kg', unit.id);
        const key = edgeKey(s.nodeId, t.metaedge, o.nodeId);
        const edge = edges.get(key);
        if (edge) {
          if (!edge.evidenceIds.includes(path.id)) duplicatesCollapsed++;
          add(edge.evidenceIds, path.id);
        } else
          edges.set(key, {
            key,
            sourceId: s.nodeId,
            metaedge: t.metaedge,
            targetId: o.nodeId,
            origin: 'kg',
            sources: ['kg'],
            evidenceIds: [path.id],
            corroboratedBy: [],
          });
        keys.push(key);
      }
      paths.push({ id: path.id, unitId: unit.id, text: path.nodes.map((n) => n.name).join(' → '), edgeKeys: keys, corroborated: false });
    }
  }

  for (const unit of selected.filter((u) => u.source !== 'kg')) {
    const mentioned = unit.entities.map((e) => nodeFor(e, unit.source, unit.id, e.mention));
    for (const [i, a] of mentioned.entries()) {
      for (const b of mentioned.slice(i + 1)) {
        if (a.nodeId === b.nodeId) continue;
        const stated = unit.relations.filter((m) => joins(m, a.kind, b.kind));
        for (const m of stated) {
          const [s, o] = oriented(m, a, b);
          const kgEdge = kgEdgeBetween(edges, s.nodeId, m, o.nodeId);
          if (kgEdge) {
            corroborate(kgEdge, unit, 'predicate');
            continue;
          }
          const key = `text:${edgeKey(s.nodeId, m, o.nodeId)}`;
          const edge = edges.get(key);
          if (edge) {
            duplicatesCollapsed++;
            add(edge.evidenceIds, unit.id);
            add(edge.sources, unit.source);
          } else
            edges.set(key, {
              key,
              sourceId: s.nodeId,
              metaedge: m,
              targetId: o.nodeId,
              origin: 'text',
              sources: [unit.source],
              evidenceIds: [unit.id],
              corroboratedBy: [],
            });
        }
        // Naming both ends of a KG edge without a fitting phrase still corroborates it, more weakly.
        for (const edge of edges.values()) {
          const ends = new Set([edge.sourceId, edge.targetId]);
          if (edge.origin === 'kg' && ends.has(a.nodeId) && ends.has(b.nodeId) && !edge.corroboratedBy.some((c) => c.unitId === unit.id))
            corroborate(edge, unit, 'co-mention');
        }
      }
    }
  }

  for (const p of paths) p.corroborated = p.edgeKeys.some((k) => edges.get(k)!.corroboratedBy.length > 0);
  const units: GraphUnit[] = selected.map((u) => ({
    id: u.id,
    source: u.source,
    text: u.text,
    negated: u.negated,
    entityIds: [...new Set(u.entities.map((e) => canonical.get(e.nodeId) ?? e.nodeId))],
    evidenceIds: u.source === 'kg' ? u.paths.map((p) => p.id) : [u.id],
  }));
  return {
    aliasMerging: opts.mergeAliases ? 'on' : 'off (entity normalisation off)',
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    paths,
    units,
    merges,
    duplicatesCollapsed,
    checks: (opts.checks ?? []).map((c) => ({ ...c, fromId: canonical.get(c.fromId) ?? c.fromId, toId: canonical.get(c.toId) ?? c.toId })),
  };
}

function add<T>(list: T[], item: T): void {
  if (!list.includes(item)) list.push(item);
}

function corroborate(edge: GraphEdge, unit: Unit, how: 'predicate' | 'co-mention'): void {
  if (!edge.corroboratedBy.some((c) => c.unitId === unit.id)) edge.corroboratedBy.push({ unitId: unit.id, how });
  add(edge.sources, unit.source);
}

/** The metaedge's stored direction between the two entities; same-kind metaedges keep text order. */
function oriented(metaedge: string, a: GraphNode, b: GraphNode): [GraphNode, GraphNode] {
  const info = metaedgeInfo(metaedge)!;
  if (sameKind(info.source, info.target)) return [a, b];
  return sameKind(info.source, a.kind) ? [a, b] : [b, a];
}

function kgEdgeBetween(edges: Map<string, GraphEdge>, s: string, m: string, o: string): GraphEdge | undefined {
  const info = metaedgeInfo(m);
  const symmetric = !!info && sameKind(info.source, info.target) && !info.directed;
  return edges.get(edgeKey(s, m, o)) ?? (symmetric ? edges.get(edgeKey(o, m, s)) : undefined);
}

/** The graph as the offline kit walks it: KG edges cite their path records, text edges their units. */
export function bundleOf(graph: RefinedGraph): EvidenceBundle {
  const node = new Map(graph.nodes.map((n) => [n.nodeId, n]));
  const triples: EvidenceTriple[] = graph.edges.flatMap((e) => {
    const [s, o] = [node.get(e.sourceId)!, node.get(e.targetId)!];
    return e.evidenceIds.map((id) => ({
      id,
      sourceId: s.nodeId,
      sourceName: s.name,
      sourceKind: s.kind,
      metaedge: e.metaedge,
      targetId: o.nodeId,
      targetName: o.name,
      targetKind: o.kind,
    }));
  });
  // An answer set's edges are cited by the set where no edge of the graph states them.
  const stated = new Set(triples.map((t) => `${t.sourceId}|${t.metaedge}|${t.targetId}`));
  const sets = graph.sets ?? [];
  const paths = sets.flatMap((set) => {
    const unstated = set.triples.filter((t) => !stated.has(`${t.sourceId}|${t.metaedge}|${t.targetId}`));
    return unstated.length ? [{ id: set.id, triples: unstated }] : [];
  });
  return { triples, paths, checks: graph.checks, sets: sets.map(({ triples: _edges, ...set }) => set) };
}

/** Text units as passages, for the kit's stated-answer reading of yes/no questions. */
export function textPassages(graph: RefinedGraph): Passage[] {
  return graph.units.filter((u) => u.source !== 'kg').map((u) => ({ id: u.id, text: u.text }));
}

/** Every evidence id the graph holds: what an answer may cite. */
export function graphEvidenceIds(graph: RefinedGraph): Set<string> {
  return new Set([
    ...graph.edges.flatMap((e) => e.evidenceIds),
    ...graph.units.flatMap((u) => u.evidenceIds),
    ...graph.checks.map((c) => c.id),
    ...(graph.sets ?? []).map((s) => s.id),
  ]);
}

/** Sources behind the given evidence ids: the units that hold them and the text that corroborates their edges. */
export function sourcesOf(graph: RefinedGraph, ids: string[]): Source[] {
  const wanted = new Set(ids);
  const sources = new Set<Source>();
  for (const u of graph.units) if (u.evidenceIds.some((id) => wanted.has(id))) sources.add(u.source);
  for (const e of graph.edges) if (e.evidenceIds.some((id) => wanted.has(id))) for (const s of e.sources) sources.add(s);
  return [...sources];
}
