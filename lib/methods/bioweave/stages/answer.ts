import { withoutExcluded } from '@/lib/llm/templates/answer-fields';
import { metaedgeVerbs } from '@/lib/channels/kg-text';
import { normalise } from '@/lib/llm/offline/text';
import { similarityName } from '@/lib/trace/steps/common';
import type { MethodAnswer, MethodContext } from '../../types';
import type { QuestionFrame } from '../frame';
import { graphEvidenceIds, sourcesOf } from '../graph';
import type { BioWeaveParams } from '../params';
import { answerTemplate, type Answer } from '../templates';
import { stage, totalUsage, type StageUsage } from '../usage';
import type { RoundOutcome } from './round';
import { incompleteHops } from './structured';

export interface GuardedAnswer {
  answer: Answer;
  /** Ids the role cited that are not in the refined graph. */
  droppedEvidenceIds: string[];
  /** For counts: the stated number and the distinct normalised entities behind it. */
  countCheck: { stated: number | null; items: number; distinct: number } | null;
  /** An answer the role gave without any supporting evidence of the graph (withheld). */
  unsupportedAnswer: string | null;
}

/**
 * GenFinalAnswer over the last round's refined graph. The role may cite only
 * the graph's evidence; a count is the number of distinct normalised entities
 * it lists; an answer left with no evidence is a repair need, not an answer.
 */
export async function generateAnswer(ctx: MethodContext<BioWeaveParams>, frame: QuestionFrame, last: RoundOutcome, usage: StageUsage[]): Promise<MethodAnswer> {
  const { graph, check, state } = last;
  const staged = await stage(
    ctx,
    { kind: 'bioweave.answer', label: 'Verified answer', input: { rounds: last.round, satisfied: check.satisfied } },
    'answer',
    async (_step, call) => {
      const verbs = Object.fromEntries(await metaedgeVerbs());
      const raw = await call(
        answerTemplate,
        { frame, plan: state.plan, graph, check, activeSources: frame.enabledSources, verbs },
        { maxTokens: ctx.params.answerMaxTokens },
      );
      const guarded = guard(raw, graph, state.plan.answerType === 'integer');
      await ctx.trace.markSelected(guarded.answer.evidenceIds);
      return guarded;
    },
  );
  const { answer: a, droppedEvidenceIds, countCheck, unsupportedAnswer } = staged.output;
  const incomplete = incompleteHops(state.coverage);
  const items = withoutExcluded(a.items, a.excluded);
  const names = withoutExcluded(a.items.length ? a.items : a.answer && !a.needsRepair ? [a.answer] : [], a.excluded);
  const byName = new Map(graph.nodes.map((n) => [normalise(n.name), n.nodeId]));
  return {
    text: items.length < a.items.length ? items.join('; ') : a.answer,
    optionKey: a.optionKey,
    items,
    nodeIds: [...new Set(names.flatMap((n) => byName.get(normalise(n)) ?? []))],
    count: a.count,
    abstained: a.needsRepair || !a.answer.trim(),
    evidenceIds: a.evidenceIds,
    claims: a.claims,
    rationale: a.briefReason,
    extra: {
      needsRepair: a.needsRepair,
      missingHop: a.missingHop,
      operator: state.plan.operator,
      answerType: state.plan.answerType,
      operatorSatisfied: check.satisfied,
      rounds: last.round,
      /** Hops whose KG answer set a capped search left open: a count or list over them may be short. */
      incompleteHops: incomplete,
      /** The caps the answer's retrieval reached (the run page's answer box reads these rather than guessing). */
      capsReached: incomplete.length ? [{ param: 'rawPathCap', value: ctx.params.rawPathCap, hops: incomplete }] : [],
      supportingSources: a.supportingSources,
      countCheck,
      droppedEvidenceIds,
      unsupportedAnswer,
      similarity: similarityName(ctx.model.similarity.current()),
      usage: totalUsage([...usage, staged.usage]),
    },
  };
}

/** `countAsked`: the plan asks for a number; a model that also fills `count` for a list still answers the list. */
function guard(raw: Answer, graph: RoundOutcome['graph'], countAsked: boolean): GuardedAnswer {
  const allowed = graphEvidenceIds(graph);
  const dropped = new Set<string>();
  const keep = (ids: string[]) =>
    [...new Set(ids)].filter((id) => {
      if (!allowed.has(id)) dropped.add(id);
      return allowed.has(id);
    });
  const claims = raw.claims.map((c) => ({ text: c.text, evidenceIds: keep(c.evidenceIds) }));
  const evidenceIds = [...new Set([...keep(raw.evidenceIds), ...claims.flatMap((c) => c.evidenceIds)])];
  const distinct = [...new Set(raw.items.map(normalise))];
  const counting = raw.count !== null && (countAsked || !raw.items.length);
  const countCheck = counting ? { stated: raw.count, items: raw.items.length, distinct: distinct.length } : null;
  // Counting is over distinct normalised entities; a number with no list behind it stands as stated.
  const recount = counting && raw.items.length > 0;
  const unsupported = !raw.needsRepair && !!raw.answer.trim() && !evidenceIds.length;
  const answer: Answer = {
    ...raw,
    count: recount ? distinct.length : raw.count,
    answer: unsupported ? '' : recount && !raw.optionKey ? String(distinct.length) : raw.answer,
    items: raw.items.filter((item, i) => raw.items.findIndex((x) => normalise(x) === normalise(item)) === i),
    claims,
    evidenceIds,
    supportingSources: sourcesOf(graph, evidenceIds),
    needsRepair: raw.needsRepair || unsupported,
    briefReason: unsupported ? `${raw.briefReason} (no evidence of the refined graph supports the answer: needs repair)` : raw.briefReason,
  };
  return { answer, droppedEvidenceIds: [...dropped], countCheck, unsupportedAnswer: unsupported ? raw.answer : null };
}
