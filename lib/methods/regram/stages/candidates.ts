import type { RelationDomain } from '@/lib/kg/metaedge-categories';
import { lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { metaedges, sameKind } from '@/lib/llm/offline/metaedges';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { RegramParams } from '../params';
import { priorWeight, relationDescription } from '../mmr';
import { EARLIER_HOP, type HopLinking, type LinkedNode } from './link';

/** A relation's place in the hub cap's order. */
export interface RelationRank {
  metaedge: string;
  /** w_r for the domain. */
  weight: number;
  /** w_r · Sim(q_i, the relation's description): Eq. 1's relevance term at the level of the relation. */
  relevance: number;
}

/** How the hub cap applied to one linked node. */
export interface NodeCap {
  nodeId: string;
  name: string;
  kind: string;
  kept: number;
  /** Some incident triples were left out. */
  capped: boolean;
  /** The node's relations in cap order; `available` is null for one never read because the cap was already reached. */
  relations: (RelationRank & { available: number | null; kept: number })[];
}

/** An MCQ option's direct KG edges to the hop's linked nodes: part of the paper's uncapped T_cand, so scored whatever the cap. */
export interface OptionEdges {
  option: string;
  nodeId: string;
  name: string;
  /** Direct edges between the option and a linked node, in T_cand. */
  edges: number;
  /** Of those, how many the hub cap had left out (read for the option). */
  beyondCap: number;
}

export interface CandidateSet {
  enabled: boolean;
  note: string | null;
  hubCap: number;
  caps: NodeCap[];
  optionEdges: OptionEdges[];
  /** T_cand: one record per KG edge, in retrieval order. */
  records: EvidenceRecord[];
  /** Pairs of linked nodes whose own edges T_cand holds whole: a `check` record each where a relation has none. */
  absences: EvidenceRecord[];
  /** Records of an edge already retrieved through another linked node. */
  duplicates: number;
}

/**
 * The order in which a hub's relations fill the cap: by relation weight w_r,
 * scaled by how well the relation's description matches the hop question (so
 * that in the INTEGRATED column, where Regulates outweighs Associated_with,
 * "which diseases are associated with PPARG" still keeps PPARG's disease
 * associations); relations the question does not touch follow by w_r alone.
 * The relations are the loaded graph's, described by their category and clause
 * ("Disease Treats: are treated by Drug").
 */
export function rankRelations(query: string, domain: RelationDomain | null): RelationRank[] {
  return relationsOf()
    .map(({ abbr, text }) => {
      const weight = priorWeight(abbr, domain);
      return { metaedge: abbr, weight, relevance: weight * lexicalSimilarity(query, text) };
    })
    .sort((a, b) => b.relevance - a.relevance || b.weight - a.weight);
}

type RelationWords = { abbr: string; source: string; target: string; text: string };

/** Per loaded metagraph (its metaedge list): every hop of every run ranks the same relations. */
const described = new WeakMap<readonly object[], RelationWords[]>();

/** The loaded graph's relations in words. */
function relationsOf(): RelationWords[] {
  const loaded = metaedges();
  let words = described.get(loaded);
  if (!words) {
    words = loaded.map((m) => ({ abbr: m.abbr, source: m.source, target: m.target, text: `${m.source} ${relationDescription(m.abbr)} ${m.target}` }));
    described.set(loaded, words);
  }
  return words;
}

/**
 * Step 3b: T_cand, the KG triples incident to the linked nodes (one hop), read
 * through the kg channel. A hub keeps at most hubCap triples: its relations in
 * the order of rankRelations, and within a relation its best-connected
 * neighbours first. The cap is ours, not the paper's (its T_cand is every
 * triple at E_exp): an edge joining a linked node to an entity the question
 * names as an MCQ option is read whatever the cap, so the region's scoring
 * (Sim reads q_i with each option) weighs it; options still seed nothing.
 */
export async function collectCandidates(
  ctx: MethodContext<RegramParams>,
  parent: StepHandle,
  linking: HopLinking,
  domain: RelationDomain | null,
  options: { key: string; nodeId: string; name: string; kind: string }[] = [],
): Promise<CandidateSet> {
  const { nodes, relationQuery } = linking;
  const hubCap = ctx.params.hubCap;
  return ctx.trace.step(
    { kind: 'regram.candidates', label: 'Candidate triples', input: { nodes: nodes.map((n) => n.nodeId), domain, hubCap }, parent },
    async (step) => {
      if (!nodes.length) return { enabled: true, note: 'no entity was linked', hubCap, caps: [], optionEdges: [], records: [], absences: [], duplicates: 0 };
      const order = rankRelations(relationQuery, domain);
      const anchors = nodes.map((n) => ({ id: n.nodeId, kind: n.kind, name: n.name }));
      const answer = await ctx.channels.kg.triplesAround(
        step,
        anchors,
        { metaedgeTiers: order.map((r) => [r.metaedge]), limit: hubCap },
        'Triples around the linked nodes, capped by relation',
      );
      // An edge between two linked nodes arrives once per node; the first stands for it.
      const first = new Map<string, EvidenceRecord>();
      for (const r of answer.items) if (!first.has(r.ref)) first.set(r.ref, r);
      const capped = new Set(first.keys());
      // The paper's uncapped T_cand holds every edge between two linked nodes: read whole whatever the cap, so a claim about
      // the pair ("does X treat Y") is decided by its own edges, and the relations it has none of are the closed world's "no".
      // An option's direct edges to each linked node are read with them, in one read.
      const linked = answer.enabled
        ? anchors.slice(0, PAIR_NODES).flatMap((a, i) => anchors.slice(i + 1, PAIR_NODES).map((b, d) => ({ i, j: i + 1 + d, a, b })))
        : [];
      const optioned = answer.enabled ? options.filter((o) => !nodes.some((n) => n.nodeId === o.nodeId)) : [];
      const optionNode = (o: (typeof options)[number]) => ({ id: o.nodeId, kind: o.kind, name: o.name });
      const read = await ctx.channels.kg.edgesBetweenPairs(
        step,
        [
          ...linked.map(({ a, b }) => ({ from: a, to: b, label: `Edges between ${a.name} and ${b.name}` })),
          ...optioned.flatMap((o) => anchors.map((n) => ({ from: n, to: optionNode(o), label: `Edges between ${n.name} and option ${o.key}` }))),
        ],
        optioned.length ? 'Edges between the linked nodes, and to each option' : 'Edges between the linked nodes',
      );
      const absences: EvidenceRecord[] = [];
      for (const [p, { i, j }] of linked.entries()) {
        for (const r of read.pairs[p]) {
          if (r.kind === 'check') {
            if (askedPair(nodes[i], nodes[j])) absences.push(r);
          } else if (!first.has(r.ref)) first.set(r.ref, r);
        }
      }
      const optionEdges: OptionEdges[] = optioned.map((option, o) => {
        const refs = new Set<string>();
        for (const between of read.pairs.slice(linked.length + o * anchors.length, linked.length + (o + 1) * anchors.length)) {
          for (const r of between.filter((x) => x.kind === 'triple')) {
            refs.add(r.ref);
            if (!first.has(r.ref)) first.set(r.ref, r);
          }
        }
        return {
          option: option.key,
          nodeId: option.nodeId,
          name: option.name,
          edges: refs.size,
          beyondCap: [...refs].filter((ref) => !capped.has(ref)).length,
        };
      });
      const records = [...first.values()];
      const kinds = new Map(relationsOf().map((r) => [r.abbr, r]));
      const caps = nodes.map((node, i) =>
        capOf(
          node,
          order,
          kinds,
          answer.items.filter((r) => r.scores?.anchor === i),
          hubCap,
        ),
      );
      return {
        enabled: answer.enabled,
        note: answer.note ?? null,
        hubCap,
        caps,
        optionEdges,
        records,
        absences,
        duplicates: answer.items.length - capped.size,
      };
    },
  );
}

/** Linked nodes of a hop whose pairs are read whole: a hop question relates few entities to each other. */
const PAIR_NODES = 4;

/**
 * Whether a pair's lack of an edge can answer the hop: never for two of an earlier hop's answers (symptoms or classes side
 * by side), nor for two kinds no relation of the graph joins (two symptoms, two anatomies); a hop asks such pairs nothing.
 */
export function askedPair(a: LinkedNode, b: LinkedNode): boolean {
  if (a.method === EARLIER_HOP && b.method === EARLIER_HOP) return false;
  return metaedges().some((m) => (sameKind(m.source, a.kind) && sameKind(m.target, b.kind)) || (sameKind(m.source, b.kind) && sameKind(m.target, a.kind)));
}

/** How the cap went at one node: a relation was read while the node had room left; one read and empty had nothing. */
function capOf(
  node: LinkedNode,
  order: RelationRank[],
  kinds: Map<string, { source: string; target: string }>,
  records: EvidenceRecord[],
  hubCap: number,
): NodeCap {
  const cap: NodeCap = { nodeId: node.nodeId, name: node.name, kind: node.kind, kept: 0, capped: false, relations: [] };
  // The node's records by tier (a relation's place in `order`), in retrieval order: read once, not once per relation.
  const byTier = new Map<unknown, EvidenceRecord[]>();
  for (const r of records) {
    const tier = byTier.get(r.scores?.tier);
    if (tier) tier.push(r);
    else byTier.set(r.scores?.tier, [r]);
  }
  for (const [i, relation] of order.entries()) {
    const m = kinds.get(relation.metaedge)!;
    if (!sameKind(m.source, node.kind) && !sameKind(m.target, node.kind)) continue;
    const mine = byTier.get(i) ?? [];
    const available = cap.kept < hubCap ? Number(mine[0]?.scores?.anchorTotal ?? 0) : null;
    if (available === null || available > mine.length) cap.capped = true;
    cap.kept += mine.length;
    cap.relations.push({ ...relation, available, kept: mine.length });
  }
  return cap;
}
