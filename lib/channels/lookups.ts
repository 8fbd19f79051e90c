import { sharedKnowledgeLookups, type KnowledgeLookups } from '@/lib/kg';
import type { ChannelDeps } from './types';

/** The knowledge lookups a channel reads through: the run's, else the process's (lib/kg/query/lookups.ts). */
export function lookupsOf(deps: ChannelDeps): KnowledgeLookups {
  return deps.lookups ?? sharedKnowledgeLookups();
}
