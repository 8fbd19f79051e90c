import type { KgEdge, KgNode, KgPath, EdgeDirection } from '../types';
import type { GraphSnapshot } from '../store/snapshot';
import { formatMetapath } from './metapath-syntax';

/** Turning snapshot indexes back into the library's JSON records. */

export function nodeAt(g: GraphSnapshot, v: number): KgNode {
  return { id: g.nodeIds[v], kind: g.kinds[g.nodeKind[v]], name: g.nodeNames[v] };
}

export function edgeAt(g: GraphSnapshot, e: number): KgEdge {
  return { id: g.edgeId[e], sourceId: g.nodeIds[g.edgeSource[e]], metaedge: g.metaedges[g.edgeMeta[e]], targetId: g.nodeIds[g.edgeTarget[e]] };
}

export function degreeOf(g: GraphSnapshot, v: number): number {
  return g.incStart[v + 1] - g.incStart[v];
}

/** The side of edge `e` that node `v` is on. */
export function directionAt(g: GraphSnapshot, e: number, v: number): EdgeDirection {
  return g.edgeSource[e] === v ? 'out' : 'in';
}

/** A path from node indexes and the edge positions between them. */
export function pathAt(g: GraphSnapshot, nodes: ArrayLike<number>, edges: ArrayLike<number>): KgPath {
  const hops = Array.from(edges, (e, i) => ({
    metaedge: g.metaedges[g.edgeMeta[e]],
    direction: directionAt(g, e, nodes[i]),
    directed: g.metaedgeInfo[g.edgeMeta[e]].directed,
  }));
  return { nodes: Array.from(nodes, (v) => nodeAt(g, v)), edges: Array.from(edges, (e) => edgeAt(g, e)), metapath: formatMetapath(hops) };
}
