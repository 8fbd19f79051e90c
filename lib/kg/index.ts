/**
 * The KG query library: entity linking, lookups, neighbours, shared neighbours,
 * paths, metapaths, typed expansion, sampling and statistics. Linking, search and
 * profiles are indexed SQL; traversals run on an in-memory snapshot of the graph
 * loaded from Postgres (see store/snapshot.ts for why).
 */
export type {
  KgNode,
  KgEdge,
  KgTriple,
  KgPath,
  NeighborEdge,
  EntityLink,
  LinkAlternative,
  LinkMatch,
  LinkMethod,
  LinkReading,
  LinkRejection,
  LinkReport,
  MetapathHop,
  EdgeDirection,
  DirectionFilter,
} from './types';
export { normaliseName } from './normalise';
export { linkMention, linkEntities, explainLinks, type LinkOptions } from './link';
export { KnowledgeLookups, sharedKnowledgeLookups } from './query/lookups';
export { getNodes, searchNodes, nodeProfile, nodeProfiles, type NodeProfile, type SearchHit, type SearchMatch } from './store/nodes';
export { neighbors, countNeighbors, type NeighborOptions } from './neighbors';
export { sharedNeighbors, type SharedNeighbor, type SharedNeighborOptions } from './shared';
export { findPaths, searchPaths, MAX_PATH_DEPTH, type PathOptions, type PathSearch } from './paths';
export {
  chainReach,
  instantiateMetapath,
  metapathEndpoints,
  parseMetapath,
  type ChainHop,
  type ChainTriple,
  type MetapathSpec,
  type MetapathOptions,
} from './metapath';
export { expandTyped, type ExpandOptions, type Expansion } from './expand';
export { sampleEdges, samplePaths } from './sample';
export { kgStats, type KgStats, type KgImportRecord } from './store/stats';
export { graphSnapshot, invalidateGraphSnapshot } from './store/snapshot';
