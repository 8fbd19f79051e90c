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
}

/**
 * After a failed operator check: BacktraceMissingHop has named the candidate
 * hops; the repair role (UpdateSourcePlan) picks one and the sources and
 * relations to retry it with, held to the enabled channels and the hop's kinds.
 * The next round retrieves for that hop only, from its frontier.
 */
export async function decideRepair(ctx: MethodContext<BioWeaveParams>, call: RoleCaller, r: RepairContext): Promise<RepairDecision> {
  const quiet = { candidates: [], repair: null, corrections: [], plan: null, next: null };
  if (r.check.satisfied) return { ...quiet, decision: 'answer', reason: 'the refined evidence graph satisfies the operator', missingHop: null };
  const missingHop = r.check.missingHops[0] ?? null;
  if (r.spec.round >= ctx.params.maxRounds) {
    return { ...quiet, decision: 'stop', reason: `no repair round left (T = ${ctx.params.maxRounds}); the answer must say what is missing`, missingHop };
  }

  const candidates = r.check.missingHops.map((id) => candidate(r, id));
  const active = r.frame.enabledSources;
  const graph = `${r.graph.nodes.length} nodes, ${r.graph.edges.filter((e) => e.origin === 'kg').length} KG edges, ${r.graph.edges.filter((e) => e.origin === 'text').length} text edges, ${r.graph.units.length} units`;
  const repair = await call(repairTemplate, { question: ctx.question.text, plan: r.plan, activeSources: active, graph, failedCheck: r.check.reason, candidates });

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
  const queries = repair.retrievalQueries.map((q) => q.trim()).filter(Boolean).slice(0, 5);
  if (!repair.repairNeeded || !sources.length) {
    return { decision: 'stop', reason: repair.repairNeeded ? 'the repair names no usable source' : repair.briefReason, missingHop: hopId, candidates, repair, corrections, plan: null, next: null };
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
  const tried = r.attempts[id] ?? { kg: 'none', doc: 0, web: 0 };
  const located = findHop(r.plan, id);
  if (!located) {
    return { id, description: "the question's claim as a whole (no typed hop)", tried, canWiden: false, relations: [], frontier: topicEntities(r.plan, r.frame).map((t) => t.name) };
  }
  const frontier = frontierOf(r.plan, r.frame, r.memory, id).map((n) => n.name);
  return {
    id,
    description: hopLine(located.hop, frontier.slice(0, 3).join(', ') || located.hop.fromKind),
    tried,
    canWiden: canWiden(located.hop),
    relations: metaedgesBetween(located.hop.fromKind, located.hop.toKind),
    // The prompt needs a sense of where the hop starts, not every node.
    frontier: frontier.slice(0, 20),
  };
}
