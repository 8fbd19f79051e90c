import { readingOf } from '@/lib/reading';
import type { Hop, Operator as KitOperator } from '@/lib/llm/offline/types';
import type { QuestionFrame } from '../frame';
import type { Operator, Plan, PlanHop, Source } from '../plan';

/**
 * AbstractQuestion + InitSourcePlan without a model: the rule kit's reading of
 * the question, in the plan's terms. Typed relations send the plan to the KG;
 * text sources are planned whenever allowed, for distributed support.
 */

const OPERATORS: Record<KitOperator, Operator> = {
  lookup: 'lookup',
  shared_neighbor: 'shared_neighbor',
  intersection: 'intersection',
  path: 'chain',
  count: 'count',
  yesno: 'lookup',
  unknown: 'lookup',
};

function planHop(hop: Hop, id: string): PlanHop {
  return { id, fromKind: hop.from, toKind: hop.to, metaedges: hop.edges.map((e) => e.metaedge), explicit: hop.explicit };
}

export function planQuestion(input: { frame: QuestionFrame }): Plan {
  const { frame } = input;
  const u = readingOf(frame);
  const constraints = u.anchors
    .filter((a) => a.chain.length)
    .map((a, i) => ({ id: `c${i + 1}`, anchorId: a.entity.nodeId, negated: a.negated, hops: a.chain.map((h, j) => planHop(h, `c${i + 1}.h${j + 1}`)) }));
  const claims = u.propositions.map((p, i) => ({
    id: `p${i + 1}`,
    subjectId: p.subject.nodeId,
    objectId: p.object.nodeId,
    hop: planHop(p.hop, `p${i + 1}`),
    negated: p.negated,
  }));
  const typed = constraints.length > 0 || claims.length > 0;
  const anchored = [...constraints.map((c) => c.anchorId), ...claims.flatMap((c) => [c.subjectId, c.objectId])];
  const sourcePlan: Source[] = [...(typed ? (['kg'] as const) : []), 'doc', 'web'].filter((s): s is Source => frame.enabledSources.includes(s as Source));
  const uncertain = [...constraints.flatMap((c) => c.hops), ...claims.map((c) => c.hop)].filter((h) => !h.explicit && h.metaedges.length > 1).map((h) => h.id);
  return {
    mentions: [...new Set(frame.entities.map((e) => e.mention))],
    topicEntityIds: [...new Set(anchored.length ? anchored : frame.entities.map((e) => e.nodeId))],
    answerType: u.answerType,
    answerKind: u.answerKind,
    operator: OPERATORS[u.operator],
    constraints,
    claims,
    excludedIds: u.excluded.map((e) => e.nodeId),
    sourcePlan,
    missingHops: uncertain,
    briefReason: [
      `rule-based reading: ${u.operator} over ${constraints.length} constraint(s) and ${claims.length} claim(s)`,
      ...u.subquestions.map((q, i) => `step ${i + 1}: ${q}`),
      ...u.notes,
      typed ? 'KG for the typed relations' : 'no typed relation: text sources only',
    ].join('; '),
  };
}
