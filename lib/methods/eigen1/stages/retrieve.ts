import type { KgNode } from '@/lib/kg';
import { metaedgesBetween } from '@/lib/llm/offline/metaedges';
import { normalise } from '@/lib/llm/offline/text';
import type { Comparison, SimilarityUse } from '@/lib/llm/similarity';
import type { EvidenceRecord, StepHandle, TripleData } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { asLinked } from '@/lib/llm/offline/linked';
import { toItem, type RetrievedItem } from './records';
import { onePerNode } from '@/lib/base/distinct';
import { normaliseOnce } from '../normalised';

export interface Retrieval {
  query: string;
  /** The top records per source, in the order shown to the injector: the trace's own records, so a stored output refers to them rather than copying them. */
  records: EvidenceRecord[];
  /** Records the channels returned before the top-k cut (kept in the trace, unselected). */
  considered: number;
  /** How each KG candidate ranked: similarity to the query, and whether it reaches an entity the reasoning already names. */
  ranking: { id: string; sim: number; inContext: boolean; selected: boolean }[];
  /** Which similarity ranked them: the endpoint's embeddings (the paper's RAG database is queried by embedding similarity), or lexical and why. */
  similarity: SimilarityUse;
  /** With the budget split per entity (explicit RAG): the KG triples each of the query's entities got. */
  perEntity?: { entity: string; triples: number }[];
  notes: string[];
}

/**
 * One query against documents and the KG, top k from each (EIGEN-1's
 * query_top_k). KG triples come from the entities linked in the query, every
 * relation between them when it names several, else all. With the aids on
 * (aid `question-reader`, docs/aids.md) the reader picks the query's anchors
 * (never a listed option) and the relations its wording names. The direct
 * edges between the query's entities (a pair it asks about) are read whole and
 * come first. Triples that reach an entity the reasoning has
 * already named rank first (the monitor fires mid-thought: the facts that
 * continue the thought matter most), then by similarity to the query (the
 * run's: embedding cosine with an embedding model, else lexical);
 * ties are broken by a seeded hash, so proposers with different seeds can see
 * different records where the ranking cannot tell them apart.
 */
export async function retrieve(
  ctx: MethodContext<unknown>,
  parent: StepHandle,
  query: string,
  opts: { topK: number; seed: number; context: string; perEntity?: boolean },
): Promise<Retrieval> {
  const { context, ...shown } = opts;
  return ctx.trace.step({ kind: 'eigen1.retrieval', label: 'Retrieve (documents + KG)', input: { query, ...shown }, parent }, async (step) => {
    const notes: string[] = [];
    const links = asLinked(await ctx.channels.entity.link(step, query, 'Link query entities'));
    const read = await ctx.channels.aids.queryAnchors(step, query, links);
    const anchors = read?.anchors ?? onePerNode(links);
    const triples: EvidenceRecord[] = [];
    /** Which entity's neighbourhood each triple came from. */
    const around = new Map<string, string>();
    for (const anchor of anchors) {
      const node: KgNode = { id: anchor.nodeId, kind: anchor.kind, name: anchor.name };
      const kg = await ctx.channels.kg.triplesAround(
        step,
        [node],
        { metaedges: relationsFor(anchor, anchors, read?.relations), limit: 50 },
        `KG neighbours of ${anchor.name}`,
      );
      if (!kg.enabled) notes.push(kg.note ?? 'kg channel disabled');
      triples.push(...kg.items);
      for (const r of kg.items) around.set(r.id, anchor.name);
    }
    if (!anchors.length) notes.push('the query links no KG entity');
    // A query naming a pair ("relation between X and Y") reads the pair's own edges directly: a claim about them is never judged from a cut neighbourhood.
    const pairEdges: EvidenceRecord[] = [];
    for (const [i, a] of anchors.slice(0, PAIR_ANCHORS).entries()) {
      for (const b of anchors.slice(i + 1, PAIR_ANCHORS)) {
        const node = (e: typeof a): KgNode => ({ id: e.nodeId, kind: e.kind, name: e.name });
        pairEdges.push(...(await ctx.channels.kg.edgesBetween(step, node(a), node(b), `KG edges between ${a.name} and ${b.name}`)).items);
      }
    }
    const comparison = await ctx.model.similarity.compare(
      triples.map((r) => r.text),
      [query],
    );
    const ranked = rank(triples, query, comparison, { seed: opts.seed, context, anchorIds: new Set(anchors.map((a) => a.nodeId)) });
    const split = opts.perEntity && anchors.length > 1;
    const topTriples = split
      ? takeAcross(
          ranked.map((r) => r.record),
          (r) => around.get(r.id)!,
          opts.topK,
        )
      : ranked.slice(0, opts.topK).map((r) => r.record);
    const docs = await ctx.channels.doc.search(step, query, opts.topK);
    if (!docs.enabled) notes.push(docs.note ?? 'doc channel disabled');
    const pinned = new Set(pairEdges.map((r) => r.id));
    const chosen = [...pairEdges, ...topTriples.filter((r) => !pinned.has(r.id)), ...docs.items];
    await ctx.trace.markSelected(chosen.map((r) => r.id));
    const picked = new Set([...pinned, ...topTriples.map((r) => r.id)]);
    const ranking = ranked.map((r) => ({ id: r.record.id, sim: Math.round(r.sim * 1000) / 1000, inContext: r.inContext, selected: picked.has(r.record.id) }));
    const perEntity = split ? anchors.map((a) => ({ entity: a.name, triples: topTriples.filter((r) => around.get(r.id) === a.name).length })) : undefined;
    return {
      query,
      records: chosen,
      considered: triples.length + docs.items.length,
      ranking,
      similarity: comparison.used,
      ...(perEntity ? { perEntity } : {}),
      notes,
    };
  });
}

/** The anchors whose pairs are read directly. */
const PAIR_ANCHORS = 3;

/**
 * The KG budget split across the query's entities, as the paper's proposers
 * search entity by entity: each entity's best-ranked triples in turn, until k
 * (an entity with fewer leaves its share to the others); a triple is taken once.
 */
function takeAcross(ranked: EvidenceRecord[], entityOf: (r: EvidenceRecord) => string, k: number): EvidenceRecord[] {
  const queues = new Map<string, EvidenceRecord[]>();
  for (const r of ranked) queues.set(entityOf(r), [...(queues.get(entityOf(r)) ?? []), r]);
  const taken: EvidenceRecord[] = [];
  const refs = new Set<string>();
  while (taken.length < k && [...queues.values()].some((q) => q.length)) {
    for (const queue of queues.values()) {
      let next = queue.shift();
      while (next && refs.has(next.ref)) next = queue.shift();
      if (!next || taken.length >= k) continue;
      refs.add(next.ref);
      taken.push(next);
    }
  }
  return taken;
}

/** The relations the query names for this entity (as the reader, an aid, reads them); else every relation to the other entities it names; else all. */
function relationsFor(anchor: { nodeId: string; kind: string }, all: { nodeId: string; kind: string }[], named?: Map<string, string[]>): string[] | undefined {
  const own = named?.get(anchor.nodeId);
  if (own?.length) return own;
  const between = [...new Set(all.filter((o) => o.nodeId !== anchor.nodeId).flatMap((o) => metaedgesBetween(anchor.kind, o.kind)))];
  return between.length ? between : undefined;
}

function rank(records: EvidenceRecord[], query: string, comparison: Comparison, by: { seed: number; context: string; anchorIds: Set<string> }) {
  const says = wordSequences(normalise(by.context));
  // Records share their ends (the anchors' neighbours): each name is looked for once per ranking.
  const inContext = new Map<string, boolean>();
  const end = (id: string, name: string) => {
    if (by.anchorIds.has(id)) return false;
    let found = inContext.get(name);
    if (found === undefined) inContext.set(name, (found = says(normaliseOnce(name))));
    return found;
  };
  const named = (t: TripleData) => end(t.sourceId, t.sourceName) || end(t.targetId, t.targetName);
  return records
    .map((record) => ({
      record,
      sim: comparison.between(query, record.text),
      inContext: toItem(record).triples.some(named),
      tie: seededHash(`${by.seed}:${record.ref}`),
    }))
    .sort((a, b) => Number(b.inContext) - Number(a.inContext) || b.sim - a.sim || a.tie - b.tie);
}

/**
 * Whether a normalised phrase occurs, as whole words, in a normalised text (words one space apart): as
 * `" text ".includes(" phrase ")`, by the positions of the phrase's first word. The reasoning read grows to several
 * kilobytes and a ranking asks for every distinct name its records end in: a scan of the whole text per name was
 * most of a ranking's time. Positions are chained (each word's first, and from each the next of the same word) in
 * one array, not an array per word.
 */
export function wordSequences(text: string): (phrase: string) => boolean {
  const words = text ? text.split(' ') : [];
  const first = new Map<string, number>();
  const next = new Int32Array(words.length);
  for (let i = words.length - 1; i >= 0; i--) {
    next[i] = first.get(words[i]) ?? -1;
    first.set(words[i], i);
  }
  return (phrase) => {
    // An empty phrase: "  " is in " text " only when the text is empty.
    if (!phrase) return !words.length;
    const seq = phrase.split(' ');
    for (let i = first.get(seq[0]) ?? -1; i >= 0; i = next[i]) if (seq.every((w, j) => words[i + j] === w)) return true;
    return false;
  };
}

/** FNV-1a: a stable, seedable tie-break with no state. */
function seededHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
