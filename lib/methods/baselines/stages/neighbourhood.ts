import { metaedgeVerbs } from '@/lib/channels/kg-text';
import type { NodeProfile } from '@/lib/kg';
import { bm25Scores } from '@/lib/llm/offline/lexical';
import { joins, metaedges, sameKind } from '@/lib/llm/offline/metaedges';
import { leadTriplesOf, pairCheckOf } from '@/lib/trace/evidence-data';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { toLine, type EvidenceLine } from '../evidence';
import { linkedNodes, type QuestionFrame } from '../frame';
import type { KgRagParams } from '../params';
import { onePerNode } from '@/lib/base/distinct';

export interface RankedTriple {
  id: string;
  text: string;
  /** BM25 of the triple's text against the question, scaled to the best of its entity's neighbourhood (0..1). */
  lexical: number;
  /** How many other linked entities the triple's far end also touches, scaled (0..1): a fact that joins the question's entities. */
  shared: number;
  /** Aids on: 1 when the triple is of a relation the question asks at its anchor ("which symptoms does X present"), else 0. */
  asked?: number;
  score: number;
  rank: number;
  selected: boolean;
}

export interface Neighbourhood {
  /** The edges joining the question's entities pairwise, each pair read whole (a `check` line where a pair has none of a relation). */
  pairs: EvidenceLine[];
  lines: EvidenceLine[];
  /** The block heading, saying how much of the neighbourhood the top K shows. */
  title: string;
  /** Aid `option-tests`: each option's direct edges to each anchor, shown apart from the top K. */
  optionTests: EvidenceLine[];
  /** Aid `answer-set`: for a list or count question, its complete answer set, one cited unit. */
  answerSet: EvidenceLine[];
  ranking: RankedTriple[];
  notes: string[];
}

/**
 * kg-rag's retrieval (METHODS.md §1): the 1-hop KG neighbourhood of the
 * question's linked entities (all relations, best-connected neighbours first),
 * ranked per entity by lexical match to the question plus how many linked
 * entities a triple joins, then taken round-robin across the entities; the top
 * K go into the prompt, the rest stay in the trace as unselected candidates.
 * The part of the neighbourhood that joins two entities of the question is
 * read whole and shown apart ("does X treat Y" is decided by X and Y's own
 * edges, never by their absence from a cut list).
 * With the aids on (docs/aids.md), the reader picks the anchors (never an
 * option) and the relations asked at them come first, each option is tested for direct edges to each entity the stem names, a list or
 * count question gets its complete answer set, and the heading tallies each
 * relation shown against the KG's.
 */
export async function kgNeighbourhood(ctx: MethodContext<KgRagParams>, frame: QuestionFrame): Promise<Neighbourhood> {
  const read = await ctx.channels.aids.anchors(null, frame);
  // Without the reader, every entity named in the question or its options seeds the neighbourhood, however the options arrive.
  const anchors = read?.anchors ?? linkedNodes(frame);
  const candidates = read?.options ?? [];
  const { topK, neighbourhoodLimit } = ctx.params;
  return ctx.trace.step(
    {
      kind: 'kg-rag.neighbourhood',
      label: '1-hop KG neighbourhood',
      input: { anchors: anchors.map((a) => a.nodeId), candidates: candidates.map((c) => c.nodeId), topK, neighbourhoodLimit },
      // Resumed, its reads replay and the ranking is made again from them: the aids they used are the run's again.
      replayChildren: true,
    },
    async (step) => {
      if (!anchors.length)
        return {
          pairs: [],
          lines: [],
          title: KG_TITLE,
          optionTests: [],
          answerSet: [],
          ranking: [],
          notes: ['no entity of the question was linked to the KG'],
        };
      const node = (e: { nodeId: string; kind: string; name: string }) => ({ id: e.nodeId, kind: e.kind, name: e.name });
      // Aids on: the relations the reader finds asked at the anchors. A neighbourhood cut at its limit keeps them first.
      const asked = new Set([...(read?.relations.values() ?? [])].flat());
      const pairs = shownPairs(await pairEdges(ctx, step, read?.anchors ?? onePerNode(frame.entities)), read ? asked : null);
      const kg = await ctx.channels.kg.triplesAround(
        step,
        anchors.map(node),
        { limit: neighbourhoodLimit, ...(asked.size ? { metaedgeTiers: tiersFor(asked) } : {}) },
        'KG neighbours of the linked entities',
      );
      const tested = await ctx.channels.aids.optionTests(step, frame);
      // An edge already shown with its pair takes no place in the top K.
      const paired = new Set(pairs.map((r) => r.ref));
      const around = kg.items.filter((r) => !paired.has(r.ref));
      const ranking = rank(around, frame.question, new Set(anchors.map((a) => a.nodeId)), asked, topK);
      const chosen = new Set(ranking.filter((r) => r.selected).map((r) => r.id));
      const lines = around.filter((r) => chosen.has(r.id)).map(toLine);
      // The aid's reads of a pair this retrieval already read whole would only repeat it.
      const readPairs = new Set(pairs.map(toLine).flatMap((l) => pairOf(l) ?? []));
      const set = (await ctx.channels.aids.questionAnswerSet(step, frame)).filter((r) => !readPairs.has(pairOf(toLine(r)) ?? ''));
      await ctx.trace.markSelected([...pairs.map((r) => r.id), ...chosen, ...tested.map((r) => r.id), ...set.map((r) => r.id)]);
      const tally = ctx.channels.aids.enabled ? await completeness(ctx, anchors, kg.items, [...pairs.map(toLine), ...lines]) : '';
      if (tally) await ctx.channels.aids.note(step, 'completeness-notice', tally);
      const title = `${KG_TITLE} (showing ${lines.length} of ${around.length} retrieved${tally})`;
      const notes = [
        ...(kg.note ? [kg.note] : []),
        ...(candidates.length ? [`options tested as candidates (aid): ${tested.length} direct edge(s) between the options and the stem's entities`] : []),
      ];
      return { pairs: pairs.map(toLine), lines, title, optionTests: tested.map(toLine), answerSet: set.map(toLine), ranking, notes };
    },
  );
}

/** Aid `completeness-notice`: how many edges the KG holds at the anchors, and per relation how many the prompt shows of them. */
async function completeness(
  ctx: MethodContext<KgRagParams>,
  anchors: { nodeId: string; name: string }[],
  retrieved: EvidenceRecord[],
  lines: EvidenceLine[],
): Promise<string> {
  const held = sumAnchorTotals(retrieved);
  const tally = relationTally(anchors, lines, await ctx.channels.kg.relationCounts(anchors.map((a) => a.nodeId)), await metaedgeVerbs());
  return `${held > retrieved.length ? `; the KG holds ${held} edges at these entities` : ''}${tally}`;
}

const KG_TITLE = 'Knowledge graph facts';

/** Entities of the question whose pairs are read: the first few named, as a question relates few entities to each other. */
const PAIR_ENTITIES = 4;

const pairKey = (a: string, b: string) => [a, b].sort().join(' ');

/** The pair a one-edge line or a check line is about. */
function pairOf(line: EvidenceLine): string | null {
  if (line.check) return pairKey(line.check.fromId, line.check.toId);
  return line.kind !== 'set' && line.triples.length === 1 ? pairKey(line.triples[0].sourceId, line.triples[0].targetId) : null;
}

/**
 * A pair's edges, then its check lines, never above them. Aids on, a check stays only for a pair the question asks about:
 * one of two kinds, or of one kind that an asked relation joins (two diseases whose symptoms are compared are not asked
 * whether they are joined). Aids off, every pair keeps its check, as no reading says what is asked.
 */
export function shownPairs(records: EvidenceRecord[], asked: Set<string> | null): EvidenceRecord[] {
  const askedPair = (r: EvidenceRecord) => {
    const { from, to } = pairCheckOf(r);
    return !sameKind(from.kind, to.kind) || [...asked!].some((m) => joins(m, from.kind, to.kind));
  };
  const kept = records.filter((r) => r.kind !== 'check' || !asked || askedPair(r));
  return [...kept.filter((r) => r.kind !== 'check'), ...kept.filter((r) => r.kind === 'check')];
}

/** Each pair of the question's entities: its own edges, read whole, with a check record for the relations it has none of. */
async function pairEdges(
  ctx: MethodContext<KgRagParams>,
  step: StepHandle,
  entities: { nodeId: string; kind: string; name: string }[],
): Promise<EvidenceRecord[]> {
  const named = entities.slice(0, PAIR_ENTITIES).map((e) => ({ id: e.nodeId, kind: e.kind, name: e.name }));
  const out: EvidenceRecord[] = [];
  for (const [i, a] of named.entries())
    for (const b of named.slice(i + 1)) out.push(...(await ctx.channels.kg.edgesBetween(step, a, b, `KG edges between ${a.name} and ${b.name}`)).items);
  return out;
}

/**
 * Per relation at each anchor, how many edges the prompt shows of those the KG
 * holds ("Compound –treats→ gout 9/9"): a count question is answered from a
 * relation shown in full, and a cut relation says so, whatever the question
 * reading made of its wording.
 */
function relationTally(
  anchors: { nodeId: string; name: string }[],
  lines: EvidenceLine[],
  counts: Map<string, NodeProfile['degreeByMetaedge']>,
  verbs: Map<string, string>,
): string {
  const triples = lines.flatMap((l) => l.triples);
  const parts = anchors.flatMap((a) =>
    (counts.get(a.nodeId) ?? []).map((d) => {
      const shown = new Set(
        triples.filter((t) => t.metaedge === d.metaedge && (d.direction === 'out' ? t.sourceId : t.targetId) === a.nodeId).map((t) => t.edgeId),
      ).size;
      const verb = verbs.get(d.metaedge) ?? d.metaedge;
      const other = d.neighborKind ?? 'node';
      return `${d.direction === 'out' ? `${a.name} –${verb}→ ${other}` : `${other} –${verb}→ ${a.name}`} ${shown}/${d.count}`;
    }),
  );
  return parts.length ? `; per relation, shown/in the KG: ${parts.join(', ')}` : '';
}

/** Edges the KG holds at the anchors: each record carries its anchor's index and total. */
function sumAnchorTotals(records: EvidenceRecord[]): number {
  const byAnchor = new Map<number, number>();
  for (const r of records) byAnchor.set(Number(r.scores?.anchor ?? 0), Number(r.scores?.anchorTotal ?? 0));
  return [...byAnchor.values()].reduce((a, b) => a + b, 0);
}

/** The graph's relations in two tiers: the asked ones, then the rest. */
function tiersFor(asked: Set<string>): string[][] {
  const all = metaedges().map((m) => m.abbr);
  return [all.filter((m) => asked.has(m)), all.filter((m) => !asked.has(m))].filter((t) => t.length);
}

function rank(records: EvidenceRecord[], question: string, anchorIds: Set<string>, asked: Set<string>, topK: number): RankedTriple[] {
  // The triple behind each record (a neighbourhood holds triples only), and the anchor it was read at.
  const triples = leadTriplesOf(records);
  const anchorOf = triples.map((t) => (anchorIds.has(t.sourceId) ? t.sourceId : t.targetId));
  // Which anchors each non-anchor node is adjacent to, over the whole neighbourhood.
  const touching = new Map<string, Set<string>>();
  const touch = (anchor: string, other: string) => {
    if (!anchorIds.has(anchor)) return;
    const seen = touching.get(other);
    if (seen) seen.add(anchor);
    else touching.set(other, new Set([anchor]));
  };
  for (const t of triples) {
    touch(t.sourceId, t.targetId);
    touch(t.targetId, t.sourceId);
  }
  const others = Math.max(1, anchorIds.size - 1);
  const raw = bm25Scores(
    records.map((r) => r.text),
    question,
  );
  const best = new Map<string, number>();
  anchorOf.forEach((a, i) => best.set(a, Math.max(best.get(a) ?? 0, raw[i])));
  // Each linked entity's neighbourhood is ranked on its own, so one entity's name matching the question better does not crowd out the others.
  const scored = records.map((r, i) => {
    const t = triples[i];
    // A triple between two linked entities joins them outright.
    const joined =
      anchorIds.has(t.sourceId) && anchorIds.has(t.targetId)
        ? anchorIds.size
        : Math.max(touching.get(t.sourceId)?.size ?? 0, touching.get(t.targetId)?.size ?? 0);
    const shared = anchorIds.size > 1 ? Math.max(0, joined - 1) / others : 0;
    const lexical = raw[i] / (best.get(anchorOf[i]) || 1);
    // A fact of an asked relation outranks the others: "which symptoms does X present" shows X's symptoms before its genes.
    const onAsked = asked.has(t.metaedge) ? 1 : 0;
    return { lexical: round(lexical), shared: round(shared), onAsked, score: round(lexical + shared + onAsked) };
  });
  const groups = new Map<string, number[]>();
  anchorOf.forEach((a, i) => {
    const group = groups.get(a);
    if (group) group.push(i);
    else groups.set(a, [i]);
  });
  // Stable within an entity (equal scores keep the channel's best-connected-first order); then round-robin across entities.
  const ranked = [...groups.values()].map((g) => g.sort((a, b) => scored[b].score - scored[a].score || a - b));
  const longest = Math.max(0, ...ranked.map((g) => g.length));
  const out: RankedTriple[] = [];
  for (let at = 0; at < longest; at++) {
    for (const g of ranked) {
      if (at >= g.length) continue;
      const i = g[at];
      const { lexical, shared, onAsked, score } = scored[i];
      const rank = out.length + 1;
      out.push({ id: records[i].id, text: records[i].text, lexical, shared, ...(asked.size ? { asked: onAsked } : {}), score, rank, selected: rank <= topK });
    }
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
