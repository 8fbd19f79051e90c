import type { QuestionReading } from '@/lib/llm/offline/types';
import type { SetConstraint } from './kg';

/**
 * Which complete answer set a set or count question asks for, from a reading of
 * it: the nodes of the answer kind joined to every (non-negated) anchor by its
 * one-hop relation. Null when the question is not a list or count over direct
 * relations (a yes/no, an MCQ, a two-hop chain, an exclusion).
 */
export function answerSetQuery(u: QuestionReading): { constraints: SetConstraint[]; kind: string | null } | null {
  if (u.outputFormat !== 'list' && u.outputFormat !== 'count') return null;
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
