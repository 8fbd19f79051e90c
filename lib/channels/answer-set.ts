import type { KgNode } from '@/lib/kg';
import type { QuestionReading } from '@/lib/llm/offline/types';
import type { EvidenceRecord } from '@/lib/trace/types';
import type { KgChannel, SetConstraint } from './kg';
import type { Parent } from './types';

type KgNodeRef = Pick<KgNode, 'id' | 'kind' | 'name'>;

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

/** The pairs a yes/no question asks about, with the relation asked: their own edges are read directly, never judged from a cut neighbourhood. */
export function askedPairs(u: QuestionReading): { from: KgNodeRef; to: KgNodeRef; metaedges: string[] }[] {
  const node = (e: { nodeId: string; kind: string; name: string }) => ({ id: e.nodeId, kind: e.kind, name: e.name });
  return u.propositions.map((p) => ({ from: node(p.subject), to: node(p.object), metaedges: p.hop.edges.map((e) => e.metaedge) }));
}

/**
 * The KG reads a question's reading asks for as a whole: the complete answer
 * set of a set or count question, and the direct edges of each pair a yes/no
 * question names. Each is complete for what it reads, so a verdict or a count
 * taken from them is never one drawn from a cut list.
 */
export async function questionReads(kg: KgChannel, parent: Parent, u: QuestionReading, label = 'KG answer set of the question'): Promise<EvidenceRecord[]> {
  if (!kg.enabled) return [];
  const query = answerSetQuery(u);
  const set = query ? (await kg.answerSet(parent, query.constraints, query.kind, label)).items : [];
  const pairs = [];
  for (const p of askedPairs(u)) pairs.push(...(await kg.paths(parent, p.from, p.to, { maxDepth: 1, metaedges: p.metaedges, limit: PAIR_EDGES })).items);
  return [...set, ...pairs];
}

/** Edges read between one asked pair: a pair holds at most a few edges of one relation. */
const PAIR_EDGES = 10;
