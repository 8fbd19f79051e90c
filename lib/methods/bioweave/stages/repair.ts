import { metaedgesBetween } from '@/lib/llm/offline/metaedges';
import type { MethodContext } from '../../types';
import type { QuestionFrame } from '../frame';
import type { RefinedGraph } from '../graph';
import { WHOLE_QUESTION, type OperatorCheck } from '../operator';
import type { BioWeaveParams } from '../params';
import { canWiden, findHop, widenHop, type Plan, type Source } from '../plan';
import { frontierOf, topicEntities, type Attempt, type RoundPlan } from '../round';
import { hopLine, repairTemplate, type Repair, type RepairCandidate } from '../templates';
import type { Unit } from '../units';
import type { RoleCaller } from '../usage';
import { nameList } from '@/lib/llm/templates/names';

export interface RepairDecision {
  decision: 'answer' | 'repair' | 'stop';
  reason: string;
  /** The hop BacktraceMissingHop found (first candidate), or the one repaired. */
  missingHop: string | null;
  candidates: RepairCandidate[];
  /** The repair role's output, and what the guard changed in it. */
  repair: Repair | null;
  corrections: string[];
  /** The plan after UpdateSourcePlan (a widened hop); null when unchanged. */
  plan: Plan | null;
  next: RoundPlan | null;
}

interface RepairContext {
  frame: QuestionFrame;
  plan: Plan;
  spec: RoundPlan;
  memory: Unit[];
  graph: RefinedGraph;
  check: OperatorCheck;
  attempts: Record<string, Attempt>;
  incomplete: string[];
}

/**
 * After the operator check: BacktraceMissingHop has named the hops a failed
 * check lacks, and a capped search may have left a set answer (a count, a
 * list) short. The repair role (UpdateSourcePlan) picks one hop and the
 * sources and relations to retry it with, held to the enabled channels and the
 * hop's kinds. The next round retrieves for that hop only, from its frontier.
 */
export async function decideRepair(ctx: MethodContext<BioWeaveParams>, call: RoleCaller, r: RepairContext): Promise<RepairDecision> {
  const quiet = { candidates: [], repair: null, corrections: [], plan: null, next: null };
  // A capped first hop would start from its anchor again and hit the same cap: only later hops can gain from a re-expansion.
  const reopenable = r.incomplete.filter((id) => (findHop(r.plan, id)?.index ?? 0) > 0 && (r.attempts[id]?.kgRounds ?? 0) < 2);
  const setAnswer = r.plan.answerType === 'integer' || r.plan.answerType === 'entity_list';
  const short = r.check.satisfied && setAnswer && reopenable.length > 0;
  if (r.check.satisfied && !short) return { ...quiet, decision: 'answer', reason: 'the refined evidence graph satisfies the operator', missingHop: null };
  const ids = r.check.satisfied ? reopenable : [...new Set([...reopenable, ...r.check.missingHops])];
  const failed = r.check.satisfied
    ? `the answer set may be incomplete: the KG search for ${reopenable.join(', ')} hit the raw cap of ${ctx.params.rawPathCap} paths`
    : r.check.reason;
  if (r.spec.round >= ctx.params.maxRounds) {
    return r.check.satisfied
      ? { ...quiet, decision: 'answer', reason: `no repair round left (T = ${ctx.params.maxRounds}): ${failed}`, missingHop: null }
      : {
          ...quiet,
          decision: 'stop',
          reason: `no repair round left (T = ${ctx.params.maxRounds}); the answer must say what is missing`,
          missingHop: ids[0] ?? null,
        };
  }

  const candidates = ids.map((id) => candidate(r, id));
  const active = r.frame.enabledSources;
  const graph = `${r.graph.nodes.length} nodes, ${r.graph.edges.filter((e) => e.origin === 'kg').length} KG edges, ${r.graph.edges.filter((e) => e.origin === 'text').length} text edges, ${r.graph.units.length} units`;
  const repair = await call(repairTemplate, { question: ctx.question.text, plan: r.plan, activeSources: active, graph, failedCheck: failed, candidates });

  const corrections: string[] = [];
  let hopId = repair.missingHop;
  if (!hopId || !candidates.some((c) => c.id === hopId)) {
    corrections.push(`missing hop '${hopId}' is no candidate: took ${candidates[0].id}`);
    hopId = candidates[0].id;
  }
  const chosen = candidates.find((c) => c.id === hopId)!;
  const sources = [...new Set(repair.updatedSourcePlan)].filter((s): s is Source => {
    const ok = active.includes(s) && (s !== 'kg' || hopId !== WHOLE_QUESTION);
    if (!ok) corrections.push(`source ${s} dropped: ${active.includes(s) ? 'the question has no typed hop for the KG' : 'not enabled in this run'}`);
    return ok;
  });
  const relations = repair.targetRelation.filter((m) => {
    const ok = chosen.relations.includes(m);
    if (!ok) corrections.push(`relation ${m} dropped: it does not join the hop's kinds`);
    return ok;
  });
  const queries = repair.retrievalQueries
    .map((q) => q.trim())
    .filter(Boolean)
    .slice(0, 5);
  if (!repair.repairNeeded || !sources.length) {
    const reason = repair.repairNeeded ? 'the repair names no usable source' : repair.briefReason;
    return {
      decision: r.check.satisfied ? 'answer' : 'stop',
      reason,
      missingHop: r.check.satisfied ? null : hopId,
      candidates,
      repair,
      corrections,
      plan: null,
      next: null,
    };
  }

  const plan = sources.includes('kg') && relations.length ? widenHop(r.plan, hopId, relations) : null;
  const next: RoundPlan = {
    round: r.spec.round + 1,
    targetHops: [hopId],
    sources,
    frontier: hopId === WHOLE_QUESTION ? {} : { [hopId]: frontierOf(plan ?? r.plan, r.frame, r.memory, hopId) },
    missingHops: [hopId],
    queries,
    reason: repair.briefReason,
  };
  return { decision: 'repair', reason: repair.briefReason, missingHop: hopId, candidates, repair, corrections, plan, next };
}

function candidate(r: RepairContext, id: string): RepairCandidate {
  const tried = r.attempts[id] ?? { kg: 'none', kgRounds: 0, doc: 0, web: 0 };
  const capped = r.incomplete.includes(id);
  const located = findHop(r.plan, id);
  if (!located) {
    return {
      id,
      description: "the question's claim as a whole (no typed hop)",
      tried,
      canWiden: false,
      capped,
      relations: [],
      frontier: topicEntities(r.plan, r.frame).map((t) => t.name),
    };
  }
  const frontier = frontierOf(r.plan, r.frame, r.memory, id).map((n) => n.name);
  return {
    id,
    description: hopLine(located.hop, nameList(frontier.slice(0, 3)) || (located.index === 0 ? 'its anchor' : null)),
    tried,
    canWiden: canWiden(located.hop),
    capped,
    relations: metaedgesBetween(located.hop.fromKind, located.hop.toKind),
    // The prompt needs a sense of where the hop starts, not every node.
    frontier: frontier.slice(0, 20),
  };
}
