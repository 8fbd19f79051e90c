/**
 * The KG query library: entity linking, lookups, neighbours, shared neighbours,
 * paths, metapaths, typed expansion, sampling and statistics. Linking, search and
 * profiles are indexed SQL; traversals run on an in-memory snapshot of the graph
 * loaded from Postgres (see store/snapshot.ts for why).
 */
export type { KgNode, KgEdge, KgTriple, KgPath, NeighborEdge, EntityLink, LinkReport, MetapathHop, DirectionFilter } from './types';
export { normaliseName } from './normalise';
export { linkMention, linkEntities, explainLinks } from './link';
export { KnowledgeLookups, sharedKnowledgeLookups } from './query/lookups';
export { getNodes, searchNodes, nodeDegrees, nodeProfile, nodeProfiles, type NodeProfile, type SearchMatch } from './store/nodes';
export { neighbors, countNeighbors, type NeighborOptions } from './neighbors';
export { sharedNeighbors } from './shared';
export { findPaths, searchPaths, MAX_PATH_DEPTH } from './paths';
export { chainReach, instantiateMetapath, metapathEndpoints, parseMetapath, type ChainHop } from './metapath';
export { expandTyped } from './expand';
export { sampleEdges, samplePaths } from './sample';
export { kgStats } from './store/stats';
export { graphSnapshot, invalidateGraphSnapshot } from './store/snapshot';
