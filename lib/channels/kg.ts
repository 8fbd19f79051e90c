import {
  chainReach,
  expandTyped,
  findPaths,
  neighbors,
  searchPaths,
  nodeDegrees,
  sharedNeighbors,
  type ChainHop,
  type KgEdge,
  type KgNode,
  type KgPath,
  type NeighborEdge,
  type NodeProfile,
} from '@/lib/kg';
import type { EvidenceInput, EvidenceRecord, StepHandle, TripleData } from '@/lib/trace/types';
import { metaedgeVerbs, tripleText } from './kg-text';
import { shuffledAnchor, ShuffleDonors } from './kg-shuffle';
import type { ChannelAnswer, ChannelDeps, Parent } from './types';
import { lookupsOf } from './lookups';
import { loadedMetagraph } from '@/lib/kg/loaded-metagraph';
import { sameKind } from '@/lib/kg/relations';
import { nameList } from '@/lib/llm/templates/names';

/**
 * One condition of an answer set: nodes joined to `anchor` by one of
 * `metaedges`, or, with `via`, to a node the anchor reaches through those hops
 * first ("genes bound by drugs that treat X": via treats, then binds).
 * Negated, the nodes it reaches are taken away ("but not with B").
 */
export interface SetConstraint {
  anchor: KgNode;
  metaedges: string[];
  direction: 'out' | 'in' | 'both';
  via?: ChainHop[];
  negated?: boolean;
}

/** Edges read between one pair: more than any two nodes share. */
const PAIR_EDGES = 50;
/** Neighbours read per constraint: more than any node of the KG subset has along one relation. */
const SET_LIMIT = 100_000;
/** Most members whose connecting triples an answer set carries (so a reader can walk and cite them); a larger set gives its members and count only. */
const SET_TRIPLES_UP_TO = 500;
/** Names written into an answer set's text; the count is always exact. */
const SET_NAMES_SHOWN = 100;
/** Most edges a chained constraint's walks may carry into its record (the count and members are always whole). */
const SET_CHAIN_TRIPLES = 3_000;

export interface TripleQuery {
  metaedges?: string[];
  /**
   * Metaedge groups read in order, best-connected neighbours first within a
   * group, until `limit` triples per anchor: a hub keeps its preferred
   * relations (ReGraM's cap by relation weight). Replaces `metaedges`; each
   * triple's scores then also give its anchor's and group's index.
   */
  metaedgeTiers?: string[][];
  direction?: 'out' | 'in' | 'both';
  neighborKinds?: string[];
  limit?: number;
}

/** A multiple-choice option tested against an answer set: its letter, its text, and the nodes it links to. */
export interface SetOption {
  letter: string;
  text: string;
  ids: string[];
}

/**
 * The KG channel: every read of KG edges goes through here, so the `kg` switch
 * and X-R2's `kgShuffle` control are enforced in one place. Results are written
 * to the trace as evidence before the method sees them.
 */
export class KgChannel {
  private donors: ShuffleDonors | null = null;
  /** Neighbourhood and pair reads this run made, by what was read: EIGEN-1 reads the same ones in every round and lane. */
  private readonly reads = new Map<string, Promise<EvidenceInput[]>>();

  constructor(private readonly deps: ChannelDeps) {}

  get enabled() {
    return this.deps.switches.kg;
  }

  /**
   * Edges the KG holds at each node, per metaedge and side (node_degrees): what
   * a cut list of its triples is out of. Empty when the kg switch is off, and
   * under kgShuffle (the real counts would tell the control's triples apart).
   */
  async relationCounts(nodeIds: string[]): Promise<Map<string, NodeProfile['degreeByMetaedge']>> {
    if (!this.enabled || this.deps.kgShuffle) return new Map();
    const lookups = lookupsOf(this.deps);
    // A node whose profile the entity channel read (or is reading) has its counts in it; the others read the counts alone.
    const profiled = nodeIds.map((id) => lookups.heldForNode<NodeProfile>('profiles', id));
    const degrees = await lookups.byNode(
      'degrees',
      nodeIds.filter((_, i) => !profiled[i]),
      nodeDegrees,
    );
    const out = new Map<string, NodeProfile['degreeByMetaedge']>();
    for (const [i, id] of nodeIds.entries()) {
      const counts = profiled[i] ? (await profiled[i])?.degreeByMetaedge : degrees.get(id);
      if (counts) out.set(id, counts);
    }
    return out;
  }

  /** Triples incident to each anchor (1 hop). */
  async triplesAround(parent: Parent, anchors: KgNode[], query: TripleQuery = {}, label = 'KG neighbours'): Promise<ChannelAnswer> {
    return this.retrieve(
      parent,
      label,
      { anchors: anchors.map((a) => a.id), query },
      () =>
        this.readOnce(['around', anchors, query], async () => {
          const verbs = await metaedgeVerbs();
          const out: EvidenceInput[] = [];
          for (const [index, anchor] of anchors.entries()) {
            let left = query.limit ?? 50;
            for (const [tier, metaedges] of (query.metaedgeTiers ?? [query.metaedges]).entries()) {
              if (left <= 0) break;
              const result = await neighbors(anchor.id, {
                metaedges,
                direction: query.direction ?? 'both',
                neighborKinds: query.neighborKinds,
                limit: left,
              });
              const scores: Record<string, number> = query.metaedgeTiers
                ? { anchorTotal: result.total, anchor: index, tier }
                : { anchorTotal: result.total, anchor: index };
              for (const n of result.edges) out.push(tripleEvidence(orient(anchor, n), verbs, scores));
              left -= result.edges.length;
            }
          }
          return out;
        }),
      anchors,
    );
  }

  /**
   * The complete answer set of a set or count question as ONE record: every node
   * (of `kind`) that meets all the constraints, with its exact size. A list
   * question is then answered from the whole set, never from a top-K cut.
   * No paper reads one: it is an aid, asked only through the aids channel
   * (lib/channels/aids.ts), and its record is marked as the aids' evidence.
   */
  async answerSet(
    parent: Parent,
    constraints: SetConstraint[],
    kind: string | null,
    label = 'KG answer set',
    excluded: KgNode[] = [],
    options: SetOption[] = [],
  ): Promise<ChannelAnswer> {
    const input = {
      constraints: constraints.map((c) => ({
        anchor: c.anchor.id,
        metaedges: c.metaedges,
        direction: c.direction,
        ...(c.via?.length ? { via: c.via } : {}),
        ...(c.negated ? { negated: true } : {}),
      })),
      kind,
      ...(excluded.length ? { excluded: excluded.map((e) => e.id) } : {}),
    };
    // A set difference needs something to take from: the positive constraints first, then each negated one removes what it reaches.
    const ordered = [...constraints.filter((c) => !c.negated), ...constraints.filter((c) => c.negated)];
    return this.retrieve(parent, label, input, async () => {
      if (!ordered.length || ordered[0].negated) return [];
      const verbs = await metaedgeVerbs();
      let members = null as Map<string, KgNode> | null;
      const parts: string[] = [];
      const removed: string[] = [];
      // Per constraint the nodes whose edges are its evidence: the members it keeps, or the ones it takes away.
      const reads: { anchor: KgNode; edges: NeighborEdge[]; negated: boolean }[] = [];
      const chained: { anchor: KgNode; hops: ChainHop[]; keep: Set<string> | null }[] = [];
      for (const c of ordered) {
        const anchor = await this.anchorFor(c.anchor);
        const hops = c.via?.length ? [...c.via, { metaedges: c.metaedges, direction: c.direction, kind }] : null;
        // A chain's set, whole: every node its walks reach, not the neighbours of a cut list of intermediates.
        const found = hops
          ? null
          : await neighbors(anchor.id, { metaedges: c.metaedges, direction: c.direction, neighborKinds: kind ? [kind] : undefined, limit: SET_LIMIT });
        const reached = hops
          ? new Map((await chainReach(anchor.id, hops)).ends.map((n) => [n.id, n]))
          : new Map(found!.edges.map((e) => [e.neighbor.id, e.neighbor]));
        const text = hops ? chainText(anchor, hops, verbs) : constraintText(anchor, c, kind, verbs, found!.edges);
        const before: Map<string, KgNode> | null = members;
        if (c.negated) {
          const taken = new Set([...before!.keys()].filter((id) => reached.has(id)));
          members = new Map([...before!.entries()].filter((entry) => !taken.has(entry[0])));
          removed.push(`not ${text} (${taken.size} left out)`);
          if (hops) chained.push({ anchor, hops, keep: taken });
          else reads.push({ anchor, edges: found!.edges.filter((e) => taken.has(e.neighbor.id)), negated: true });
          continue;
        }
        members = before ? new Map([...before.entries()].filter((entry) => reached.has(entry[0]))) : reached;
        parts.push(text);
        if (hops) chained.push({ anchor, hops, keep: null });
        else reads.push({ anchor, edges: found!.edges, negated: false });
      }
      const aside = excluded.filter((e) => members!.delete(e.id));
      const list = [...members!.values()].sort((a, b) => a.name.localeCompare(b.name));
      // The edges joining each member to each anchor (and each node taken away to the anchor that took it), so the set is evidence a reader can walk, not only a count.
      let triples =
        list.length <= SET_TRIPLES_UP_TO
          ? reads.flatMap(({ anchor, edges, negated }) =>
              edges.filter((e) => negated || members!.has(e.neighbor.id)).map((e) => tripleData(orient(anchor, e), verbs)),
            )
          : [];
      if (list.length <= SET_TRIPLES_UP_TO) {
        const kept = new Set(members!.keys());
        for (const { anchor, hops, keep } of chained) {
          const walked = (await chainReach(anchor.id, hops, { keep: keep ?? kept, maxTriples: SET_CHAIN_TRIPLES })).triples;
          // Too many walks to carry: the set gives its members and count only.
          if (!walked) triples = [];
          else triples.push(...walked.map((t) => tripleData(t, verbs)));
          if (!walked) break;
        }
      }
      const shown = list.slice(0, SET_NAMES_SHOWN);
      const more = list.length - shown.length;
      const conditions = [
        parts.join(' and '),
        ...removed,
        ...(excluded.length ? [`other than ${nameList(excluded.map((e) => e.name))} (${aside.length} left out)`] : []),
      ];
      // Multiple choice: each option is a candidate tested against the whole set, however far the names are cut.
      const tested = options.map((o) => `${o.letter}) ${o.text} ${o.ids.some((id) => members!.has(id)) ? 'is' : 'is not'} in the set`);
      const text =
        `Complete answer set in the KG: ${list.length} ${kind ?? 'node'}${list.length === 1 ? '' : 's'} with ${conditions.join(', ')}` +
        (list.length
          ? `: ${shown.map((n) => n.name).join('; ')}${more ? ` (names cut: ${shown.length} of the ${list.length} shown; the count ${list.length} is exact)` : ''}`
          : '') +
        (tested.length ? `. The options against it: ${tested.join('; ')}` : '');
      const ref = `set:${input.constraints
        .map((c) => `${c.negated ? '!' : ''}${c.anchor}/${[...(c.via ?? []), c].map((h) => `${h.metaedges.join('+')}/${h.direction}`).join('/')}`)
        .sort()
        .join('&')}:${kind ?? '*'}${
        excluded.length
          ? `-${excluded
              .map((e) => e.id)
              .sort()
              .join('+')}`
          : ''
      }`;
      return [
        {
          channel: 'aids',
          kind: 'set',
          ref,
          text,
          data: {
            count: list.length,
            members: list.map((n) => ({ id: n.id, name: n.name, kind: n.kind })),
            constraints: input.constraints,
            kind,
            ...(excluded.length ? { excluded: input.excluded } : {}),
            ...(triples.length ? { triples } : {}),
          },
          scores: { count: list.length },
        },
      ];
    });
  }

  /** Common neighbours of several anchors, as the triples that connect each anchor to each shared node. */
  async sharedNeighbors(
    parent: Parent,
    anchors: KgNode[],
    query: { metaedges?: string[]; neighborKind?: string; limit?: number } = {},
  ): Promise<ChannelAnswer> {
    return this.retrieve(
      parent,
      'KG shared neighbours',
      { anchors: anchors.map((a) => a.id), query },
      async () => {
        const verbs = await metaedgeVerbs();
        const resolved = anchors;
        const byId = new Map(resolved.map((a) => [a.id, a]));
        const result = await sharedNeighbors(
          resolved.map((a) => a.id),
          { metaedges: query.metaedges, neighborKind: query.neighborKind, limit: query.limit ?? 50 },
        );
        return result.items.flatMap((item) =>
          item.edges.map((edge) => tripleEvidence(edgeTriple(edge, byId, item.node), verbs, { sharedBy: resolved.length })),
        );
      },
      anchors,
    );
  }

  /**
   * The KG edges joining two nodes directly (either direction, of `metaedges`
   * when given), as triples: the pair's own edges, read whole. The relations
   * it found none of are written as one `check` record (see `paths`). Under
   * kgShuffle, matched like any triple read at `from` (a check is replaced too).
   */
  async edgesBetween(parent: Parent, from: KgNode, to: KgNode, label = 'KG edges between two nodes', metaedges?: string[]): Promise<ChannelAnswer> {
    return this.retrieve(
      parent,
      label,
      { from: from.id, to: to.id, ...(metaedges ? { metaedges } : {}) },
      () => this.readOnce(['between', from, to, metaedges ?? null], () => pairEdges(from, to, metaedges)),
      [from],
    );
  }

  /**
   * What `edgesBetween` reads for each of several pairs, as one step (a hop's linked nodes with each other and with
   * every MCQ option: a step per pair cost more than its read). `pairs[i]` holds pair i's records, in the order read.
   * Under kgShuffle each pair is its own step, as with `edgesBetween`: the control draws for each pair what it drew.
   */
  async edgesBetweenPairs(
    parent: Parent,
    pairs: { from: KgNode; to: KgNode; label: string }[],
    label: string,
  ): Promise<ChannelAnswer & { pairs: EvidenceRecord[][] }> {
    if (!pairs.length) return { enabled: this.enabled, items: [], pairs: [] };
    if (this.deps.kgShuffle) {
      const each = [];
      for (const p of pairs) each.push(await this.edgesBetween(parent, p.from, p.to, p.label));
      return { enabled: this.enabled, items: each.flatMap((a) => a.items), note: each[0]?.note, pairs: each.map((a) => a.items) };
    }
    const counts: number[] = [];
    const answer = await this.retrieve(parent, label, { pairs: pairs.map((p) => ({ from: p.from.id, to: p.to.id })) }, async () => {
      // The same reads edgesBetween makes (kept once a run), sent together; their records keep the pairs' order.
      const reads = await Promise.all(pairs.map((p) => this.readOnce(['between', p.from, p.to, null], () => pairEdges(p.from, p.to))));
      for (const read of reads) counts.push(read.length);
      return reads.flat();
    });
    let at = 0;
    return { ...answer, pairs: pairs.map((_, i) => answer.items.slice(at, (at += counts[i] ?? 0))) };
  }

  /** The KG edges joining any of `from` to any of `to` directly (either direction), as triples; under kgShuffle, matched like any triple read at `from`. */
  async edgesAmong(parent: Parent, from: KgNode[], to: KgNode[], label = 'KG edges between two sets of nodes'): Promise<ChannelAnswer> {
    return this.retrieve(
      parent,
      label,
      { from: from.map((n) => n.id), to: to.map((n) => n.id) },
      async () => {
        const verbs = await metaedgeVerbs();
        const found: EvidenceInput[] = [];
        const seen = new Set<number>();
        for (const a of from)
          for (const b of to) {
            if (a.id === b.id) continue;
            for (const p of await findPaths(a.id, b.id, { maxDepth: 1, limit: 50 }))
              for (const edge of p.edges) {
                if (seen.has(edge.id)) continue;
                seen.add(edge.id);
                const [source, target] = edge.sourceId === a.id ? [a, b] : [b, a];
                found.push(tripleEvidence({ edge, source, target }, verbs, {}));
              }
          }
        return found;
      },
      from,
    );
  }

  /**
   * Paths between two nodes up to `maxDepth` hops. A search that reads the
   * pair's own edges whole (the search not cut short, its direct edges under
   * the limit) also writes the relations it found none of as one `check`
   * record: of `metaedges`, or with none asked, of every relation the two
   * kinds have ("any relation" when no edge joins them at all). That record is
   * the evidence a yes/no "no" rests on, never a cut neighbourhood's silence.
   */
  async paths(
    parent: Parent,
    from: KgNode,
    to: KgNode,
    query: { maxDepth?: number; metaedges?: string[]; limit?: number } = {},
    label = 'KG paths',
  ): Promise<ChannelAnswer> {
    return this.retrieve(parent, label, { from: from.id, to: to.id, query }, async () => {
      const verbs = await metaedgeVerbs();
      const [a, b] = await Promise.all([this.anchorFor(from), this.anchorFor(to)]);
      const limit = query.limit ?? 50;
      const found = await searchPaths(a.id, b.id, { maxDepth: query.maxDepth ?? 3, metaedges: query.metaedges, limit });
      const records = found.paths.map((p, i) => pathEvidence(p, verbs, i));
      const direct = found.paths.filter((p) => p.edges.length === 1);
      return withPairCheck(records, !found.capped && direct.length < limit, direct, query.metaedges ?? null, a, b, verbs);
    });
  }

  /**
   * Typed expansion from start nodes (BioWeave's ExpandTypedPaths): one path per
   * reached node, breadth-first over the allowed metaedges and node kinds. Each
   * path's `capped` score says whether the cap or fanout left nodes out.
   */
  async expand(
    parent: Parent,
    starts: KgNode[],
    query: { maxDepth?: number; metaedges?: string[]; kinds?: string[]; cap?: number; fanout?: number } = {},
    label = 'KG typed expansion',
  ): Promise<ChannelAnswer> {
    return this.retrieve(parent, label, { starts: starts.map((s) => s.id), query }, async () => {
      const verbs = await metaedgeVerbs();
      const resolved = await Promise.all(starts.map((s) => this.anchorFor(s)));
      const { paths, capped } = await expandTyped(
        resolved.map((s) => s.id),
        { maxDepth: query.maxDepth, allowedMetaedges: query.metaedges, allowedKinds: query.kinds, cap: query.cap, fanout: query.fanout },
      );
      return paths.map((p, i) => ({ ...pathEvidence(p, verbs, i), scores: { length: p.edges.length, rank: i, capped: capped ? 1 : 0 } }));
    });
  }

  /**
   * A read's triples, computed once per run: a read asked again (the same nodes, names and options) is recorded as a
   * step of its own as before, with the same records (the recorder keeps one of each identical record).
   */
  private readOnce(what: unknown, fetch: () => Promise<EvidenceInput[]>): Promise<EvidenceInput[]> {
    const key = JSON.stringify(what);
    let read = this.reads.get(key);
    if (!read) {
      this.reads.set(key, (read = fetch()));
      // A failed read is not kept: asked again, it is tried again.
      read.catch(() => this.reads.delete(key));
    }
    return read;
  }

  /**
   * One KG read as a trace step. `matched` names the anchors of a read that
   * returns triples: under kgShuffle its triples are replaced by as many drawn
   * from another question's retrieval (see kg-shuffle.ts), recorded in a child
   * step. Reads that return paths swap their anchors instead (anchorFor).
   */
  private async retrieve(parent: Parent, label: string, input: unknown, fetch: () => Promise<EvidenceInput[]>, matched?: KgNode[]): Promise<ChannelAnswer> {
    const { trace, switches, kgShuffle } = this.deps;
    if (!switches.kg) {
      await trace.skipped({ kind: 'channel.kg', label, input, parent }, 'kg switch is off: no triple reaches any prompt or rule');
      return { enabled: false, items: [], note: 'kg switch is off' };
    }
    const items = await trace.step({ kind: 'channel.kg', label, input: { ...(input as object), kgShuffle }, parent }, async (step) => {
      const found = await fetch();
      return trace.addEvidence(step, kgShuffle && matched ? await this.matchedShuffle(step, label, found, matched) : found);
    });
    if (!kgShuffle) return { enabled: true, items };
    const note = matched
      ? `kgShuffle: the same number of triples drawn from another question's retrieval (seed ${kgShuffle.seed})`
      : `kgShuffle: paths retrieved for seeded-random anchors of the same kinds (seed ${kgShuffle.seed}); the matched-budget draw applies to triple reads only`;
    return { enabled: true, items, note };
  }

  /** The shuffled control for a triple read: as many donor triples as the real read found, each taking the scores of the one it replaces. */
  private async matchedShuffle(parent: StepHandle, label: string, found: EvidenceInput[], anchors: KgNode[]): Promise<EvidenceInput[]> {
    const { trace, kgShuffle, question } = this.deps;
    this.donors ??= new ShuffleDonors(kgShuffle!.seed, question ?? { id: null, text: '' });
    const key = `${label}|${anchors.map((a) => a.id).join(',')}|${found.map((f) => f.ref).join(',')}`;
    return trace.step(
      {
        kind: 'channel.kg-shuffle',
        label: 'KG shuffle: matched triples from another question',
        input: { seed: kgShuffle!.seed, replaced: found.length, replacedRefs: found.map((f) => f.ref) },
        parent,
      },
      async () => {
        const draw = await this.donors!.draw(found.length, key, new Set(anchors.map((a) => a.id)));
        const verbs = await metaedgeVerbs();
        const donor = draw.donors.map((d) => d.questionId);
        return draw.triples.map((t, i) => {
          const evidence = tripleEvidence(t, verbs, { ...(found[i].scores ?? {}), shuffled: 1 });
          return { ...evidence, data: { ...(evidence.data as TripleData), shuffledFrom: donor } };
        });
      },
    );
  }

  /** Under kgShuffle, a path read's anchor is swapped for a seeded-random node of the same kind. */
  private async anchorFor(anchor: KgNode): Promise<KgNode> {
    return this.deps.kgShuffle ? shuffledAnchor(anchor, this.deps.kgShuffle.seed) : anchor;
  }
}

/** "Compound –treats→ prostate cancer": the constraint in the metaedge's direction, with its verb. */
function constraintText(anchor: KgNode, c: SetConstraint, kind: string | null, verbs: Map<string, string>, edges: NeighborEdge[]): string {
  const other = kind ?? 'node';
  const verb = [...new Set(c.metaedges.map((m) => verbs.get(m) ?? m))].join('/') || 'any relation';
  // The anchor is the source when the edges leave it; for a relation with no edges, the constraint's own direction says.
  const outgoing = edges.length ? edges.some((e) => e.direction === 'out') : c.direction !== 'in';
  return outgoing ? `${anchor.name} –${verb}→ ${other}` : `${other} –${verb}→ ${anchor.name}`;
}

/** "cervical cancer ←treats– Compound –binds→ Gene": a chained constraint with its verbs, each arrow in its metaedge's direction. */
function chainText(anchor: KgNode, hops: ChainHop[], verbs: Map<string, string>): string {
  let text = anchor.name;
  for (const h of hops) {
    const verb = [...new Set(h.metaedges.map((m) => verbs.get(m) ?? m))].join('/');
    text += `${h.direction === 'in' ? ` ←${verb}– ` : ` –${verb}→ `}${h.kind ?? 'node'}`;
  }
  return text;
}

/** The edges joining two nodes directly, read whole up to PAIR_EDGES, with the `check` record of the relations they have none of. */
async function pairEdges(from: KgNode, to: KgNode, metaedges?: string[]): Promise<EvidenceInput[]> {
  const verbs = await metaedgeVerbs();
  const found = await searchPaths(from.id, to.id, { maxDepth: 1, metaedges, limit: PAIR_EDGES });
  const triples = found.paths.flatMap((p) =>
    p.edges.map((edge) =>
      tripleEvidence({ edge, source: p.nodes.find((n) => n.id === edge.sourceId)!, target: p.nodes.find((n) => n.id === edge.targetId)! }, verbs, {}),
    ),
  );
  const whole = !found.capped && found.paths.length < PAIR_EDGES;
  return withPairCheck(triples, whole, found.paths, metaedges ?? null, from, to, verbs);
}

function orient(anchor: KgNode, n: NeighborEdge): { edge: KgEdge; source: KgNode; target: KgNode } {
  return n.direction === 'out' ? { edge: n.edge, source: anchor, target: n.neighbor } : { edge: n.edge, source: n.neighbor, target: anchor };
}

function edgeTriple(edge: KgEdge, anchors: Map<string, KgNode>, shared: KgNode) {
  const source = anchors.get(edge.sourceId) ?? shared;
  const target = anchors.get(edge.targetId) ?? shared;
  return { edge, source, target };
}

export function tripleData(t: { edge: KgEdge; source: KgNode; target: KgNode }, verbs: Map<string, string>): TripleData {
  return {
    edgeId: t.edge.id,
    sourceId: t.source.id,
    sourceName: t.source.name,
    sourceKind: t.source.kind,
    metaedge: t.edge.metaedge,
    verb: verbs.get(t.edge.metaedge) ?? t.edge.metaedge,
    targetId: t.target.id,
    targetName: t.target.name,
    targetKind: t.target.kind,
  };
}

function tripleEvidence(t: { edge: KgEdge; source: KgNode; target: KgNode }, verbs: Map<string, string>, scores: Record<string, number>): EvidenceInput {
  const data = tripleData(t, verbs);
  return { channel: 'kg', kind: 'triple', ref: `edge:${t.edge.id}`, text: tripleText(data), data, scores };
}

/**
 * The relations a pair read whole has no edge of: those asked less those
 * found; with none asked, null (any relation) when nothing joins the pair,
 * else every relation of the two kinds less those found. Undefined when
 * every relation asked was found.
 */
function absentRelations(found: Set<string>, asked: string[] | null, a: string, b: string): string[] | null | undefined {
  if (!asked && !found.size) return null;
  const kinds = (m: { source: string; target: string }) => (sameKind(m.source, a) && sameKind(m.target, b)) || (sameKind(m.source, b) && sameKind(m.target, a));
  const candidates =
    asked ??
    loadedMetagraph()
      .metaedges.filter(kinds)
      .map((m) => m.abbr);
  const absent = candidates.filter((m) => !found.has(m));
  return absent.length ? absent : undefined;
}

/**
 * `records`, and the pair's check record when its direct edges (`direct`, one-edge paths) were read `whole`
 * and some relation asked (or, with none asked, of the two kinds) has none of them.
 */
function withPairCheck(
  records: EvidenceInput[],
  whole: boolean,
  direct: { edges: KgEdge[] }[],
  asked: string[] | null,
  a: KgNode,
  b: KgNode,
  verbs: Map<string, string>,
): EvidenceInput[] {
  if (!whole || a.id === b.id) return records;
  const absent = absentRelations(new Set(direct.map((p) => p.edges[0].metaedge)), asked, a.kind, b.kind);
  return absent === undefined ? records : [...records, pairCheckEvidence(a, b, absent, verbs)];
}

/** The record of a pair read whole with no edge of `metaedges` between its ends (either direction). */
function pairCheckEvidence(a: KgNode, b: KgNode, metaedges: string[] | null, verbs: Map<string, string>): EvidenceInput {
  const ref = (n: KgNode) => ({ id: n.id, name: n.name, kind: n.kind });
  const relation = metaedges?.length ? metaedges.map((m) => `'${verbs.get(m) ?? m}' (${m})`).join(' or ') : 'any relation';
  return {
    channel: 'kg',
    kind: 'check',
    ref: `check:${[a.id, b.id].sort().join('&')}:${metaedges ? [...metaedges].sort().join('+') : '*'}`,
    text: `No edge of ${relation} between ${a.name} and ${b.name} in the KG (the pair's own edges, read whole)`,
    data: { from: ref(a), to: ref(b), metaedges },
  };
}

function pathEvidence(path: KgPath, verbs: Map<string, string>, rank: number): EvidenceInput {
  const hops = path.edges.map((edge) => {
    const source = path.nodes.find((n) => n.id === edge.sourceId)!;
    const target = path.nodes.find((n) => n.id === edge.targetId)!;
    return tripleData({ edge, source, target }, verbs);
  });
  return {
    channel: 'kg',
    kind: 'path',
    ref: `path:${path.edges.map((e) => e.id).join('-')}`,
    text: path.nodes.map((n) => n.name).join(' → ') + ` (${path.metapath})`,
    data: { nodes: path.nodes, hops, metapath: path.metapath },
    scores: { length: path.edges.length, rank },
  };
}
