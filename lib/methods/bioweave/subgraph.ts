import { pathDataOf } from '@/lib/trace/evidence-data';
import { sameKind } from '@/lib/llm/offline/metaedges';
import type { EvidenceRecord, TripleData } from '@/lib/trace/types';
import { locatedHops, planRelations, type Plan } from './plan';
import type { Unit, UnitEntity, UnitPath } from './units';
import { distinctBy, onePerNode } from '@/lib/base/distinct';

/**
 * The KG evidence subgraph G_q (DetectEvidenceSubgraph / PruneSubgraph): the
 * nodes and edges of the retrieved paths, pruned to the kinds and relations the
 * plan can use. Plain data, so a round's step output carries it.
 */
export interface Subgraph {
  nodes: UnitEntity[];
  edges: { edgeId: number; sourceId: string; metaedge: string; targetId: string }[];
}

export interface Pruning {
  before: { nodes: number; edges: number };
  after: { nodes: number; edges: number };
  prunedNodes: { nodeId: string; name: string; kind: string; reason: string }[];
  prunedEdges: { metaedge: string; count: number; reason: string }[];
  /** Paths that lost a node or edge to pruning and were dropped. */
  droppedPaths: number;
  note: string;
}

/** A KG channel path record as a unit path (nodes in walk order). */
export function pathOf(record: EvidenceRecord): UnitPath | null {
  if (record.kind !== 'path') return null;
  const data = pathDataOf(record);
  if (!data.nodes.length) return null;
  return { id: record.id, nodes: data.nodes.map((n) => ({ nodeId: n.id, name: n.name, kind: n.kind })), triples: data.hops, metapath: data.metapath };
}

/**
 * A KG unit as the `bioweave.kg` step stores it: its instances are the path records its channel steps retrieved, so the
 * trace holds each path once (`channel.kg`) and the unit references it.
 */
export type StoredKgUnit = Omit<Unit, 'paths'> & { paths: EvidenceRecord[] };

export function storedKgUnit(unit: Unit, records: ReadonlyMap<string, EvidenceRecord>): StoredKgUnit {
  return { ...unit, paths: unit.paths.map((p) => records.get(p.id)!) };
}

/** The unit a stored KG unit stands for, its paths made from their records as retrieval made them (a trace written before holds the paths). */
export function kgUnitOf(stored: Omit<Unit, 'paths'> & { paths: readonly (UnitPath | EvidenceRecord)[] }): Unit {
  return { ...stored, paths: stored.paths.map((p) => ('nodes' in p ? p : pathOf(p)!)) };
}

export function subgraphOf(paths: UnitPath[]): Subgraph {
  const nodes = new Map<string, UnitEntity>();
  const edges = new Map<number, Subgraph['edges'][number]>();
  for (const p of paths) {
    for (const n of p.nodes) nodes.set(n.nodeId, n);
    for (const t of p.triples) edges.set(t.edgeId, { edgeId: t.edgeId, sourceId: t.sourceId, metaedge: t.metaedge, targetId: t.targetId });
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

export function mergeSubgraphs(a: Subgraph, b: Subgraph): Subgraph {
  return {
    nodes: onePerNode([...a.nodes, ...b.nodes]),
    edges: distinctBy([...a.edges, ...b.edges], (e) => e.edgeId),
  };
}

/**
 * PruneSubgraph: drop nodes of kinds the plan never reaches and edges of
 * relations it never follows; a path survives only whole. The paper's second
 * criterion, nodes too frequent to discriminate, is left to retrieval order:
 * both searches take least-connected neighbours first.
 */
export function prunePaths(plan: Plan, paths: UnitPath[]): { kept: UnitPath[]; pruning: Pruning } {
  const kinds = locatedHops(plan).flatMap(({ hop }) => [hop.fromKind, hop.toKind]);
  const relations = planRelations(plan);
  const before = subgraphOf(paths);
  const badNode = new Map<string, UnitEntity>();
  for (const n of before.nodes) if (!kinds.some((k) => sameKind(k, n.kind))) badNode.set(n.nodeId, n);
  const badEdges = new Map<string, number>();
  for (const e of before.edges) if (!relations.has(e.metaedge)) badEdges.set(e.metaedge, (badEdges.get(e.metaedge) ?? 0) + 1);
  const kept = paths.filter((p) => p.nodes.every((n) => !badNode.has(n.nodeId)) && p.triples.every((t) => !badEdges.has(t.metaedge)));
  const after = subgraphOf(kept);
  return {
    kept,
    pruning: {
      before: { nodes: before.nodes.length, edges: before.edges.length },
      after: { nodes: after.nodes.length, edges: after.edges.length },
      prunedNodes: [...badNode.values()].map((n) => ({ ...n, reason: `kind ${n.kind} is on no hop of the plan` })),
      prunedEdges: [...badEdges.entries()].map(([metaedge, count]) => ({ metaedge, count, reason: `${metaedge} is no relation the plan follows` })),
      droppedPaths: paths.length - kept.length,
      note: 'frequency pruning is left to retrieval order: both searches take least-connected neighbours first',
    },
  };
}
