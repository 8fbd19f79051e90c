import type { QuestionReading } from '@/lib/llm/offline/types';
import type { SetConstraint } from './kg';

/**
 * Which complete answer set a set or count question asks for, from a reading of
 * it: the nodes of the answer kind joined to every (non-negated) anchor by its
 * one-hop relation. A single-answer question with several such constraints
 * ("which compound binds HTR2A and treats migraine?") asks for a member of the
 * same set: its candidates are exactly the nodes meeting them all, however many
 * each constraint alone reaches. Null otherwise (a yes/no, an MCQ, a two-hop
 * chain, an exclusion, a single answer with one constraint).
 */
export function answerSetQuery(u: QuestionReading): { constraints: SetConstraint[]; kind: string | null } | null {
  const intersection = u.outputFormat === 'single' && u.anchors.length > 1;
  if (u.outputFormat !== 'list' && u.outputFormat !== 'count' && !intersection) return null;
  if (!u.anchors.length || u.anchors.some((a) => a.negated || a.chain.length !== 1)) return null;
  const constraints = u.anchors.map((a) => {
    const hop = a.chain[0];
    // A relation the question names is followed as named; one the kinds chose, by its preferred reading only.
    const edges = hop.explicit ? hop.edges : hop.edges.slice(0, 1);
    const ends = new Set(edges.map((e) => e.fromEnd));
    const direction = ends.size === 1 && !ends.has('any') ? (ends.has('source') ? 'out' : 'in') : 'both';
    return { anchor: { id: a.entity.nodeId, kind: a.entity.kind, name: a.entity.name }, metaedges: edges.map((e) => e.metaedge), direction } as SetConstraint;
  });
  return { constraints, kind: u.answerKind ?? u.anchors[0].chain[0].to };
}
