// The JSON shapes of the KG routes, derived from the lib/kg contract so that they
// follow it. Type-only imports: safe in client code.
import type { kgStats, neighbors, nodeProfile, searchNodes } from '@/lib/kg';

export type KgNodeDto = Awaited<ReturnType<typeof searchNodes>>[number];
export type NodeProfileDto = NonNullable<Awaited<ReturnType<typeof nodeProfile>>>;
export type NeighborsDto = Awaited<ReturnType<typeof neighbors>>;
export type NeighborItemDto = NeighborsDto['edges'][number];
export type DegreeRowDto = NodeProfileDto['degreeByMetaedge'][number];
type KgStatsDto = Awaited<ReturnType<typeof kgStats>>;

export interface SearchResponse {
  items: KgNodeDto[];
}

export interface HealthResponse {
  ok: boolean;
  db: 'up' | 'down';
  kg: { nodes: number; edges: number; source: string | null } | null;
}
