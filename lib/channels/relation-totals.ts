import { metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import type { TripleData } from '@/lib/trace/types';
import type { KgChannel } from './kg';
import { metaedgeVerbs } from './kg-text';

type ShownEdge = Pick<TripleData, 'edgeId' | 'sourceId' | 'targetId' | 'metaedge'>;

/** Relations asked at one node: its metaedges (all of the node's when absent) in one direction from it. */
export interface RelationsAt {
  node: { id: string; name: string };
  metaedges?: string[];
  direction?: 'out' | 'in' | 'both';
}

/** How many edges of one relation the KG holds at a node, and how many of them a prompt shows. */
export interface RelationTotal {
  nodeId: string;
  metaedge: string;
  /** From the node: `out` it is the metaedge's source, `in` its target, `either` for a metaedge whose direction means nothing. */
  direction: 'out' | 'in' | 'either';
  total: number;
  shown: number;
  /** "Trifluoperazine –binds→ Gene: 21 in the KG (15 shown)", in the metaedge's direction with the KG's verb. */
  text: string;
}

/**
 * The exact number of edges the KG holds per relation at each node (node_degrees,
 * through the kg channel: none with the kg switch off or under kgShuffle), beside
 * how many of them `shown` holds. What a cut list states, so a count is read from
 * the KG rather than from the lines that fit a prompt.
 */
export async function relationTotals(
  kg: KgChannel,
  asked: RelationsAt[],
  shown: ShownEdge[],
  options: { together?: string; counts?: ReturnType<KgChannel['relationCounts']> } = {},
): Promise<RelationTotal[]> {
  // `counts`: the asked nodes' `kg.relationCounts`, read ahead while the caller cut its list.
  const counts = await (options.counts ?? kg.relationCounts([...new Set(asked.map((a) => a.node.id))]));
  const verbs = await metaedgeVerbs();
  const out: (RelationTotal & { kind: string })[] = [];
  // The shown edges per relation: each node's relations count only their own.
  const shownBy = new Map<string, ShownEdge[]>();
  for (const t of shown) {
    const same = shownBy.get(t.metaedge);
    if (same) same.push(t);
    else shownBy.set(t.metaedge, [t]);
  }
  for (const a of asked) {
    const wanted = a.metaedges?.length ? new Set(a.metaedges) : null;
    const degrees = (counts.get(a.node.id) ?? []).filter((d) => !wanted || wanted.has(d.metaedge));
    const byRelation = new Map<string, RelationTotal & { kind: string }>();
    for (const d of degrees) {
      const info = metaedgeInfo(d.metaedge);
      // Only a metaedge joining a kind to itself can run either way (Compound –resembles– Compound); Gr>G cannot.
      const either = info ? sameKind(info.source, info.target) && !info.directed : false;
      if (!either && a.direction && a.direction !== 'both' && a.direction !== d.direction) continue;
      const direction = either ? 'either' : d.direction;
      const key = `${d.metaedge} ${direction}`;
      const entry = byRelation.get(key) ?? {
        nodeId: a.node.id,
        metaedge: d.metaedge,
        direction,
        total: 0,
        shown: shownOf(shownBy.get(d.metaedge) ?? [], a.node.id, direction),
        text: '',
        kind: d.neighborKind ?? 'node',
      };
      entry.total += d.count;
      byRelation.set(key, entry);
    }
    out.push(...byRelation.values());
  }
  const named = options.together ? merged(out) : out;
  return named.map(({ kind, ...t }) => {
    const at = options.together ?? asked.find((a) => a.node.id === t.nodeId)!.node.name;
    const verb = verbs.get(t.metaedge) ?? t.metaedge;
    const relation = t.direction === 'either' ? `${at} –${verb}– ${kind}` : t.direction === 'out' ? `${at} –${verb}→ ${kind}` : `${kind} –${verb}→ ${at}`;
    return { ...t, text: `${relation}: ${t.total} in the KG (${t.shown} shown)` };
  });
}

/** One total per relation over several nodes taken together ("the hop's 11 entities"), largest first. */
function merged<T extends RelationTotal & { kind: string }>(totals: T[]): T[] {
  const byRelation = new Map<string, T>();
  for (const t of totals) {
    const key = `${t.metaedge} ${t.direction}`;
    const seen = byRelation.get(key);
    byRelation.set(key, seen ? { ...seen, total: seen.total + t.total, shown: seen.shown + t.shown } : { ...t });
  }
  return [...byRelation.values()].sort((a, b) => b.total - a.total);
}

/** Distinct edges of one relation (`triples`, all of that metaedge) at the node on its side of them. */
function shownOf(triples: ShownEdge[], nodeId: string, direction: RelationTotal['direction']): number {
  const at = (t: ShownEdge) =>
    direction === 'either' ? t.sourceId === nodeId || t.targetId === nodeId : (direction === 'out' ? t.sourceId : t.targetId) === nodeId;
  return new Set(triples.filter(at).map((t) => t.edgeId)).size;
}
