import type { ChainHop, KgNode } from '@/lib/kg';
import type { Hop, QuestionReading } from '@/lib/llm/offline/types';
import type { EvidenceRecord } from '@/lib/trace/types';
import type { KgChannel, SetConstraint } from './kg';
import type { Parent } from './types';

type KgNodeRef = Pick<KgNode, 'id' | 'kind' | 'name'>;

/**
 * Which complete answer set a question asks for, from a reading of it: the
 * nodes of the answer kind that every anchor reaches along its whole chain
 * (one hop, or up to three: "genes bound by drugs that treat X"), less those a
 * negated anchor reaches ("genes of A but not of B", "drugs that treat X
 * without causing Y") and the members the question sets aside ("other than
 * metformin"). Asked by a list or count question; by a single-answer question
 * with several constraints ("which compound binds HTR2A and treats
 * migraine?": its candidates are exactly the nodes meeting them all); by a
 * yes/no question whether such a node exists ("does X bind any gene in
 * pathway P", "is Y among the diseases associated with genes that interact
 * with Z", read as a meeting of chains), and by a multiple-choice question
 * over a chain (the options are tested against the whole set). Null otherwise
 * (a yes/no on a given pair, only negated anchors, a single answer or an
 * option over one one-hop constraint).
 */
export function answerSetQuery(u: QuestionReading): { constraints: SetConstraint[]; kind: string | null; excluded: KgNodeRef[] } | null {
  if (!u.anchors.some((a) => !a.negated) || u.propositions.length || u.anchors.some((a) => !a.chain.length)) return null;
  const chained = u.anchors.some((a) => a.chain.length > 1);
  const negated = u.anchors.some((a) => a.negated);
  const asked =
    u.outputFormat === 'list' ||
    u.outputFormat === 'count' ||
    (u.outputFormat === 'single' && u.anchors.length > 1) ||
    (u.outputFormat === 'yesno' && !negated && (chained || u.anchors.length > 1)) ||
    (u.outputFormat === 'option' && !negated && chained);
  if (!asked) return null;
  const constraints = u.anchors.map((a) => {
    const [last, ...before] = a.chain.map(setHop).reverse();
    const constraint: SetConstraint = {
      anchor: { id: a.entity.nodeId, kind: a.entity.kind, name: a.entity.name },
      metaedges: last.metaedges,
      direction: last.direction,
      ...(a.negated ? { negated: true } : {}),
    };
    return before.length ? { ...constraint, via: before.reverse() } : constraint;
  });
  const excluded = u.excluded.map((e) => ({ id: e.nodeId, kind: e.kind, name: e.name }));
  return { constraints, kind: u.answerKind ?? u.anchors.find((a) => !a.negated)!.chain.at(-1)!.to, excluded };
}

/** One hop of a chain as the KG reads it: a relation the question names is followed as named; one the kinds chose, by its preferred reading only. */
function setHop(hop: Hop): ChainHop {
  const edges = hop.explicit ? hop.edges : hop.edges.slice(0, 1);
  const ends = new Set(edges.map((e) => e.fromEnd));
  const direction = ends.size === 1 && !ends.has('any') ? (ends.has('source') ? 'out' : 'in') : 'both';
  return { metaedges: edges.map((e) => e.metaedge), direction, kind: hop.to };
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
  const options = u.options.map((o) => ({
    letter: o.letter,
    text: o.text,
    ids: o.links.flatMap((l) => [l.nodeId, ...(l.readings ?? []).map((r) => r.nodeId)]),
  }));
  const set = query ? (await kg.answerSet(parent, query.constraints, query.kind, label, query.excluded, options)).items : [];
  const pairs = [];
  for (const p of askedPairs(u)) pairs.push(...(await kg.paths(parent, p.from, p.to, { maxDepth: 1, metaedges: p.metaedges, limit: PAIR_EDGES })).items);
  return [...set, ...pairs];
}

/** Edges read between one asked pair: a pair holds at most a few edges of one relation. */
const PAIR_EDGES = 10;
