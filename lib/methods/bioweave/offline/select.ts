import { sameKind } from '@/lib/llm/offline/metaedges';
import { locatedHops } from '../plan';
import type { CandidateView, Selection, SelectionInput } from '../templates';

/**
 * The LLM-aware selector without a model: first, for every hop of the plan,
 * the best-scored candidate not yet picked that covers it (one that fits the
 * operator whole preferred), so the operator can be satisfied; then the rest
 * by cross-score, answer-type compatible candidates first, up to k.
 */
export function selectUnitsOffline(input: SelectionInput): Selection {
  const { plan, candidates, k } = input;
  const fitsType = (c: CandidateView) => !plan.answerKind || c.kinds.some((kind) => sameKind(kind, plan.answerKind!));
  const picked = new Map<string, string>();
  for (const { hop } of locatedHops(plan)) {
    if (picked.size >= k) break;
    // A unit not yet picked, so each hop brings its own evidence (one capped meeting search must not stand for every chain).
    const covering = candidates.filter((c) => c.hops.includes(hop.id) && !picked.has(c.id));
    const best = covering.find((c) => c.operatorConsistent) ?? covering[0];
    if (best) picked.set(best.id, `covers hop ${hop.id}${best.operatorConsistent ? ' and fits the operator whole' : ''}`);
  }
  const rest = [...candidates.filter(fitsType), ...candidates.filter((c) => !fitsType(c))];
  for (const c of rest) {
    if (picked.size >= k) break;
    if (!picked.has(c.id)) picked.set(c.id, `s_cross ${c.sCross.toFixed(3)}${fitsType(c) ? `, names a ${plan.answerKind ?? 'candidate'}` : ''}`);
  }
  return {
    selected: [...picked.entries()].map(([id, reason]) => ({ id, reason })),
    briefReason: `offline selector: hop coverage first, then cross-score; ${picked.size} of ${candidates.length} kept (k = ${k})`,
  };
}
