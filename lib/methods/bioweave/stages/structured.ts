import type { EvidenceCheck } from '@/lib/llm/offline/evidence';
import { pairCheckOf } from '@/lib/trace/evidence-data';
import { citableId } from '@/lib/trace/ids';
import { MAX_PATH_DEPTH, type KgNode } from '@/lib/kg';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { BioWeaveParams } from '../params';
import { findHop, followed, planRelations, type LocatedHop, type Plan, type PlanHop } from '../plan';
import type { RoundPlan } from '../round';
import { pathOf, prunePaths, type Pruning } from '../subgraph';
import { kgHops, patternText, reverse, stepFits, stepsOf, type Unit, type UnitEntity, type UnitPath } from '../units';
import { onePerNode } from '@/lib/base/distinct';

/**
 * StructuredRetrieval: bidirectional path search between the topic entities,
 * then typed expansion from the candidate entities (or, in a repair round, from
 * the missing hop's frontier), under one raw cap; the subgraph is pruned, every
 * path ranked with its four terms recorded, and paths of one metapath between
 * the same topic entities become one KG evidence unit.
 */

export interface RankTerms {
  entityCoverage: number;
  relationCompatibility: number;
  missingHopCoverage: number;
  operatorConsistency: number;
}

export interface RankedPath {
  id: string;
  text: string;
  depth: number;
  origin: 'bidirectional' | 'expansion';
  terms: RankTerms;
  /** Mean of the four terms. */
  score: number;
}

export interface SearchRecord {
  origin: 'bidirectional' | 'expansion';
  from: string[];
  to: string | null;
  maxDepth: number;
  metaedges: string[];
  kinds: string[] | null;
  cap: number;
  found: number;
  capped: boolean;
  /** The plan hops the search retrieves for (both chains of a meeting search). */
  hops: string[];
  /** Hops the cap may have cut short: all of a capped meeting search; a capped expansion's from the depth it stopped at. */
  open: string[];
}

export interface StructuredRetrieval {
  searches: SearchRecord[];
  pruning: Pruning;
  depths: { depth: number; paths: RankedPath[] }[];
  units: Unit[];
  /** Set when a cap left reachable paths out (counts may then be short): the round's raw cap, the paths kept, and how many existed. */
  capped: CapReached | null;
  notes: string[];
  /** Pairs whose own edges a search read whole and found absent: what a claim's "no" rests on. */
  checks: EvidenceCheck[];
  /** The path records the searches retrieved, by id: what the step stores for the units' paths. */
  records: Map<string, EvidenceRecord>;
}

/**
 * The raw cap reached in a round. A capped search stops where it is, so the
 * paths beyond it are not counted: `available` is a lower bound ("≥ kept").
 */
export interface CapReached {
  cap: number;
  kept: number;
  available: string;
}

/** Hops whose KG searches hit the raw cap, and hops some search covered to the end, over every round so far. */
export interface Coverage {
  capped: string[];
  complete: string[];
}

export function coverageAfter(before: Coverage, searches: SearchRecord[]): Coverage {
  return {
    capped: [...new Set([...before.capped, ...searches.flatMap((s) => s.open)])],
    complete: [...new Set([...before.complete, ...searches.flatMap((s) => s.hops.filter((h) => !s.open.includes(h)))])],
  };
}

/**
 * Hops whose answer set is still open: a capped search left them short and no
 * search over them ran to the end (a complete meeting search holds every
 * shared answer, whatever the expansions missed).
 */
export function incompleteHops(coverage: Coverage): string[] {
  const complete = new Set(coverage.complete);
  return coverage.capped.filter((id) => !complete.has(id));
}

/** What a path should look like to fit the operator: a chain from its first node, or two chains meeting. */
type Expectation = { kind: 'chain'; chain: PlanHop[] } | { kind: 'pair'; a: PlanHop[]; b: PlanHop[] };

interface Found {
  path: UnitPath;
  origin: RankedPath['origin'];
  expect: Expectation;
}

const node = (e: UnitEntity): KgNode => ({ id: e.nodeId, name: e.name, kind: e.kind });

export async function retrieveStructured(
  ctx: MethodContext<BioWeaveParams>,
  step: StepHandle,
  plan: Plan,
  round: RoundPlan,
  topics: UnitEntity[],
): Promise<StructuredRetrieval> {
  const { dMax, rawPathCap } = ctx.params;
  const targets = round.targetHops.flatMap((id) => findHop(plan, id) ?? []);
  const byId = new Map(topics.map((t) => [t.nodeId, t]));
  const searches: SearchRecord[] = [];
  const found: Found[] = [];
  const notes: string[] = [];
  const checks: EvidenceCheck[] = [];
  const records = new Map<string, EvidenceRecord>();
  const pathsOf = (items: EvidenceRecord[]): UnitPath[] =>
    items.flatMap((r) => {
      const path = pathOf(r);
      if (path) records.set(r.id, r);
      return path ?? [];
    });
  let budget = rawPathCap;

  const search = async (pair: Pair, maxDepth: number, cap: number) => {
    const [a, b] = [byId.get(pair.a), byId.get(pair.b)];
    if (!a || !b) return;
    const metaedges = [...new Set([...pair.chainA, ...pair.chainB].flatMap(followed))];
    const answer = await ctx.channels.kg.paths(step, node(a), node(b), { maxDepth, metaedges, limit: cap });
    const paths = pathsOf(answer.items);
    for (const r of answer.items.filter((r) => r.kind === 'check')) {
      const { from, to, metaedges: read } = pairCheckOf(r);
      checks.push({ id: r.id, fromId: from.id, toId: to.id, metaedges: read });
    }
    budget -= paths.length;
    // A search that fills its limit may have had more paths than it returned.
    searches.push({
      origin: 'bidirectional',
      from: [a.name],
      to: b.name,
      maxDepth,
      metaedges,
      kinds: null,
      cap,
      found: paths.length,
      capped: paths.length >= cap,
      hops: [...pair.chainA, ...pair.chainB].map((h) => h.id),
      open: paths.length >= cap ? [...pair.chainA, ...pair.chainB].map((h) => h.id) : [],
    });
    for (const path of paths) found.push({ path, origin: 'bidirectional', expect: { kind: 'pair', a: pair.chainA, b: pair.chainB } });
  };

  const expand = async (group: { starts: UnitEntity[]; chain: PlanHop[] }, cap: number) => {
    const maxDepth = Math.min(dMax, group.chain.length);
    const metaedges = [...new Set(group.chain.slice(0, maxDepth).flatMap(followed))];
    const kinds = [...new Set(group.chain.slice(0, maxDepth).map((h) => h.toKind))];
    const answer = await ctx.channels.kg.expand(step, group.starts.map(node), { maxDepth, metaedges, kinds, cap, fanout: rawPathCap });
    const paths = pathsOf(answer.items);
    const capped = answer.items.some((r) => r.scores?.capped === 1);
    budget -= paths.length;
    // Breadth first: the cap stops the expansion inside its deepest level, every shallower level is whole.
    const deepest = Math.max(1, ...paths.map((p) => p.triples.length));
    const hops = group.chain.map((h) => h.id);
    searches.push({
      origin: 'expansion',
      from: group.starts.map((s) => s.name),
      to: null,
      maxDepth,
      metaedges,
      kinds,
      cap,
      found: paths.length,
      capped,
      hops,
      open: capped ? hops.slice(deepest - 1) : [],
    });
    for (const path of paths) found.push({ path, origin: 'expansion', expect: { kind: 'chain', chain: group.chain } });
  };

  // Chains that meet within D_max are searched first, with the whole cap: short meeting paths (shared neighbours) are
  // the operator's own evidence. The expansions and the longer meetings (each end still within D_max of its entity)
  // then share what is left turn by turn: a long meeting's paths multiply per answer node, so alone it would spend the
  // cap on few answers, and an expansion through a hub would leave the meeting nothing.
  const pairs = topicPairs(plan, targets).map((pair) => ({ pair, meet: Math.min(dMax, pair.chainA.length) + Math.min(dMax, pair.chainB.length) }));
  for (const { pair, meet } of pairs.filter((p) => p.meet <= dMax)) if (budget > 0) await search(pair, meet, budget);
  const tasks = [
    ...expansionGroups(targets, round).map((group) => ({ label: group.starts.map((s) => s.name).join(', '), run: (cap: number) => expand(group, cap) })),
    ...pairs
      .filter((p) => p.meet > dMax)
      .map(({ pair, meet }) => ({ label: `${pair.a} ↔ ${pair.b}`, run: (cap: number) => search(pair, Math.min(MAX_PATH_DEPTH, meet), cap) })),
  ];
  for (const [i, task] of tasks.entries()) {
    const cap = Math.floor(budget / (tasks.length - i));
    if (cap > 0) await task.run(cap);
    else notes.push(`raw cap of ${rawPathCap} paths spent before searching from ${task.label}`);
  }

  const { kept, pruning } = prunePaths(
    plan,
    found.map((f) => f.path),
  );
  const keptIds = new Set(kept.map((p) => p.id));
  const topicIds = new Set(topics.map((t) => t.nodeId));
  const rank = pathRanker(plan, round.missingHops, topicIds);
  const ranked = found
    .filter((f) => keptIds.has(f.path.id))
    .map((f) => ({ ...f, ranked: rank(f) }))
    .sort((a, b) => b.ranked.score - a.ranked.score || a.ranked.depth - b.ranked.depth);
  const depths = [...new Set(ranked.map((r) => r.ranked.depth))]
    .sort((a, b) => a - b)
    .map((depth) => ({ depth, paths: ranked.filter((r) => r.ranked.depth === depth).map((r) => r.ranked) }));
  const units = groupUnits(plan, round.round, ranked, topicIds);
  const retrieved = searches.reduce((n, s) => n + s.found, 0);
  const capped = searches.some((s) => s.capped) ? { cap: rawPathCap, kept: retrieved, available: `≥ ${retrieved}` } : null;
  return { searches, pruning, depths, units, capped, notes, checks, records };
}

interface Pair {
  a: string;
  b: string;
  chainA: PlanHop[];
  chainB: PlanHop[];
}

/** Pairs of topic entities whose chains may meet: a claim's two ends, or a target constraint and each other constraint. */
function topicPairs(plan: Plan, targets: LocatedHop[]): Pair[] {
  const pairs = new Map<string, Pair>();
  for (const t of targets) {
    const claim = plan.claims.find((c) => c.id === t.owner);
    if (claim) {
      pairs.set(`${claim.subjectId}|${claim.objectId}`, { a: claim.subjectId, b: claim.objectId, chainA: [claim.hop], chainB: [] });
      continue;
    }
    const own = plan.constraints.find((c) => c.id === t.owner)!;
    for (const other of plan.constraints) {
      if (other.id === own.id || other.anchorId === own.anchorId) continue;
      const key = [own.anchorId, other.anchorId].sort().join('|');
      if (!pairs.has(key)) pairs.set(key, { a: own.anchorId, b: other.anchorId, chainA: own.hops, chainB: other.hops });
    }
  }
  return [...pairs.values()];
}

/** Target hops expanded together when they follow the same relations to the same kinds, so the cap is shared turn by turn. */
function expansionGroups(targets: LocatedHop[], round: RoundPlan): { starts: UnitEntity[]; chain: PlanHop[] }[] {
  const groups = new Map<string, { starts: Map<string, UnitEntity>; chain: PlanHop[] }>();
  for (const t of targets) {
    const starts = round.frontier[t.hop.id] ?? [];
    if (!starts.length) continue;
    const signature = JSON.stringify(t.rest.map((h) => [h.fromKind, h.toKind, followed(h)]));
    const group = groups.get(signature) ?? { starts: new Map(), chain: t.rest };
    for (const s of starts) group.starts.set(s.nodeId, s);
    groups.set(signature, group);
  }
  return [...groups.values()].map((g) => ({ starts: [...g.starts.values()], chain: g.chain }));
}

function pathRanker(plan: Plan, missingHops: string[], topicIds: Set<string>): (f: Found) => RankedPath {
  // What every path is ranked against, read from the plan once per search.
  const relations = planRelations(plan);
  const missing = missingHops.flatMap((id) => findHop(plan, id)?.hop ?? []);
  return (f) => rankPath(f, relations, missing, topicIds);
}

function rankPath(f: Found, relations: Set<string>, missing: PlanHop[], topicIds: Set<string>): RankedPath {
  const steps = stepsOf(f.path);
  const onPath = new Set(f.path.nodes.map((n) => n.nodeId));
  const terms: RankTerms = {
    entityCoverage: topicIds.size ? [...topicIds].filter((id) => onPath.has(id)).length / topicIds.size : 0,
    relationCompatibility: steps.filter((s) => relations.has(s.metaedge)).length / steps.length,
    missingHopCoverage: missing.length ? missing.filter((h) => steps.some((s) => stepFits(s, h) || stepFits(reverse(s), h))).length / missing.length : 0,
    operatorConsistency: consistency(steps, f.expect),
  };
  const score = (terms.entityCoverage + terms.relationCompatibility + terms.missingHopCoverage + terms.operatorConsistency) / 4;
  return { id: f.path.id, text: f.path.nodes.map((n) => n.name).join(' → '), depth: steps.length, origin: f.origin, terms, score };
}

/**
 * A chain path fits to the extent it walks a prefix of the chain (a partial
 * chain scores its share); two chains meeting fit only at their full length,
 * scored by the steps that sit where the chains put them.
 */
function consistency(steps: ReturnType<typeof stepsOf>, expect: Expectation): number {
  if (expect.kind === 'chain') {
    const prefix = steps.every((s, i) => i < expect.chain.length && stepFits(s, expect.chain[i], followed(expect.chain[i])));
    return prefix ? steps.length / expect.chain.length : 0;
  }
  const length = expect.a.length + expect.b.length;
  if (steps.length !== length) return 0;
  const fitting = steps.filter((s, i) => {
    if (i < expect.a.length) return stepFits(s, expect.a[i], followed(expect.a[i]));
    const hop = expect.b[length - 1 - i];
    return stepFits(reverse(s), hop, followed(hop));
  }).length;
  return fitting / length;
}

/** One KG unit per metapath from the same topic entity (and, for meeting paths, to the same one); its text lists every instance at each position. */
function groupUnits(plan: Plan, round: number, ranked: (Found & { ranked: RankedPath })[], topicIds: Set<string>): Unit[] {
  const groups = new Map<string, (Found & { ranked: RankedPath })[]>();
  for (const r of ranked) {
    // An expansion's instances share their start; a meeting search's, both ends. Nodes in between vary, topic or not.
    const [first, last] = [r.path.nodes[0], r.path.nodes.at(-1)!];
    const start = topicIds.has(first.nodeId) ? first.name : first.kind;
    const key = citableId('kg', r.path.metapath, start, ...(r.origin === 'bidirectional' ? [last.name] : []));
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.entries()].map(([id, members]) => {
    const paths = members.map((m) => m.path);
    return {
      id,
      source: 'kg',
      round,
      ref: null,
      text: patternText(paths),
      entities: onePerNode(paths.flatMap((p) => p.nodes)),
      predicate: paths[0].metapath,
      relations: [...new Set(paths.flatMap((p) => p.triples.map((t) => t.metaedge)))],
      hops: kgHops(plan, paths),
      span: null,
      provenance: paths.map((p) => p.id),
      negated: false,
      paths,
      pathScore: Math.max(...members.map((m) => m.ranked.score)),
      operatorConsistent: members.some((m) => m.ranked.terms.operatorConsistency === 1),
    };
  });
}
