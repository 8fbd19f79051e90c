import { normalise } from '@/lib/llm/offline/text';
import { derive } from '../operator';
import { sourcesOf } from '../graph';
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
    return { ...none, needsRepair: true, missingHop: check.missingHops[0] ?? null, briefReason: `the evidence graph does not satisfy the ${plan.operator} operator: ${check.reason}` };
  }
  const { result, stated } = derive(plan, frame, graph);
  const reason = result.rationale.join('; ');
  if (stated && stated.decision !== 'maybe') {
    // statedAnswer cites sentences as "<unit id>:<start>-<end>"; the unit is what the answer cites.
    const ids = [...new Set(stated.supportIds.map((s) => s.slice(0, s.lastIndexOf(':'))))];
    return { ...none, answer: stated.decision, normalizedAnswer: stated.decision, supportingSources: sourcesOf(graph, ids), evidenceIds: ids, claims: [{ text: stated.reason, evidenceIds: ids }], needsRepair: false, missingHop: null, briefReason: stated.reason };
  }
  const top = result.answers[0];
  const all = [...new Set(result.answers.flatMap((a) => a.supportIds))];
  const base = { ...none, needsRepair: false, missingHop: null, briefReason: reason };
  if (result.chosenOption) {
    const text = frame.options?.[result.chosenOption] ?? result.chosenOption;
    const ids = top?.supportIds ?? [];
    return { ...base, answer: text, normalizedAnswer: text, optionKey: result.chosenOption, evidenceIds: ids, supportingSources: sourcesOf(graph, ids), claims: [{ text: `${result.chosenOption}. ${text}`, evidenceIds: ids }] };
  }
  if (result.count !== undefined) {
    const items = result.answers.map((a) => a.name);
    return { ...base, answer: String(result.count), normalizedAnswer: String(result.count), items, count: result.count, evidenceIds: all, supportingSources: sourcesOf(graph, all), claims: result.answers.map((a) => ({ text: a.name, evidenceIds: a.supportIds })) };
  }
  if (result.verdict) {
    // A "no" rests on the claim's relation edges that were retrieved and name something else (closed world around them).
    const ids = top?.supportIds.length ? top.supportIds : claimNeighbourhood(input);
    return { ...base, answer: result.verdict, normalizedAnswer: result.verdict, evidenceIds: ids, supportingSources: sourcesOf(graph, ids), claims: [{ text: result.rationale.at(-1) ?? result.verdict, evidenceIds: ids }] };
  }
  const chosen = plan.answerType === 'entity_list' ? result.answers : result.answers.slice(0, 1);
  const ids = [...new Set(chosen.flatMap((a) => a.supportIds))];
  return {
    ...base,
    answer: chosen.map((a) => a.name).join('; '),
    normalizedAnswer: chosen.map((a) => normalise(a.name)).join('; '),
    items: plan.answerType === 'entity_list' ? chosen.map((a) => a.name) : [],
    evidenceIds: ids,
    supportingSources: sourcesOf(graph, ids),
    claims: chosen.map((a) => ({ text: a.name, evidenceIds: a.supportIds })),
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
    for (const e of graph.edges) if (r.metaedges.includes(e.metaedge) && (r.ends.includes(e.sourceId) || r.ends.includes(e.targetId))) for (const id of e.evidenceIds) ids.add(id);
  }
  return [...ids];
}
