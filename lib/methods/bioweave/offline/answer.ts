import { solutionFromReasoning } from '@/lib/llm/offline/solution';
import { normalise } from '@/lib/llm/offline/text';
import { sourcesOf } from '../graph';
import { derive } from '../operator';
import type { Answer, AnswerInput } from '../templates';

/**
 * GenFinalAnswer without a model: the kit's set operations over the refined
 * graph along the plan's hops (the same derivation the operator check ran);
 * for yes/no questions the KG does not decide, what the text units state.
 * When the check failed, needs_repair and the missing hop, never a guess.
 */
export function answerOffline(input: AnswerInput): Answer {
  const { frame, plan, graph, check } = input;
  const none = { answer: '', normalizedAnswer: '', optionKey: null, items: [], count: null, supportingSources: [], evidenceIds: [], claims: [] };
  if (!check.satisfied) {
    return {
      ...none,
      needsRepair: true,
      missingHop: check.missingHops[0] ?? null,
      briefReason: `the evidence graph does not satisfy the ${plan.operator} operator: ${check.reason}`,
    };
  }
  const { u, result, stated } = derive(plan, frame, graph);
  if (stated && stated.decision !== 'maybe') {
    // statedAnswer cites sentences as "<unit id>:<start>-<end>"; the unit is what the answer cites.
    const ids = [...new Set(stated.supportIds.map((s) => s.slice(0, s.lastIndexOf(':'))))];
    return {
      ...none,
      answer: stated.decision,
      normalizedAnswer: stated.decision,
      supportingSources: sourcesOf(graph, ids),
      evidenceIds: ids,
      claims: [{ text: stated.reason, evidenceIds: ids }],
      needsRepair: false,
      missingHop: null,
      briefReason: stated.reason,
    };
  }
  const solution = solutionFromReasoning(u, result, frame.options);
  // A "no" rests on the relation edges that were retrieved around the claim and name something else (closed world around them).
  const claims =
    result.verdict === 'no' && !solution.claims.some((c) => c.evidenceIds.length)
      ? [{ text: result.rationale.at(-1) ?? 'no', evidenceIds: claimNeighbourhood(input) }]
      : solution.claims;
  const evidenceIds = [...new Set(claims.flatMap((c) => c.evidenceIds))];
  return {
    answer: solution.answer,
    normalizedAnswer: normalise(solution.answer),
    optionKey: solution.optionKey,
    items: solution.items,
    count: solution.count,
    supportingSources: sourcesOf(graph, evidenceIds),
    evidenceIds,
    claims,
    needsRepair: solution.abstain,
    missingHop: null,
    briefReason: solution.rationale,
  };
}

/** Evidence of the refined graph's edges that carry a claim's (or a constraint's first) relation at the entities it names. */
function claimNeighbourhood({ plan, graph }: AnswerInput): string[] {
  const relations = [
    ...plan.claims.map((c) => ({ ends: [c.subjectId, c.objectId], metaedges: c.hop.metaedges })),
    ...plan.constraints.map((c) => ({ ends: [c.anchorId], metaedges: c.hops[0].metaedges })),
  ];
  const ids = new Set<string>();
  for (const r of relations) {
    for (const e of graph.edges)
      if (r.metaedges.includes(e.metaedge) && (r.ends.includes(e.sourceId) || r.ends.includes(e.targetId))) for (const id of e.evidenceIds) ids.add(id);
  }
  return [...ids];
}
