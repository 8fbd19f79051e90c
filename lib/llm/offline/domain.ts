/**
 * ReGraM's domain typing without a model: the domain whose relations the
 * question uses (its column of relation weights), INTEGRATED when it mixes
 * domains, and the answer kind's domain when no relation was read. A
 * metaedge's and a kind's domain come from the metagraph (lib/kg/relations.ts).
 */

import { kindDomain, type Domain } from '@/lib/kg/relations';
import { metaedgeInfo } from './metaedges';
import type { QuestionReading } from './types';

export type { Domain };

export function domainOf(u: QuestionReading): Domain {
  const hops = [...u.anchors.flatMap((a) => a.chain), ...u.propositions.map((p) => p.hop)];
  const domains = new Set(hops.map((h) => h.edges[0] && metaedgeInfo(h.edges[0].metaedge)?.domain).filter(Boolean));
  if (domains.size === 1) return [...domains][0]!;
  if (domains.size > 1) return 'INTEGRATED';
  const kind = u.answerKind;
  return (kind && kindDomain(kind)) || 'INTEGRATED';
}
