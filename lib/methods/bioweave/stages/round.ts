import type { EvidenceCheck } from '@/lib/llm/offline/evidence';
import type { CandidateEntity } from '@/lib/llm/offline/passages';
import { normalise } from '@/lib/llm/offline/text';
import type { MethodContext } from '../../types';
import { frameCandidates, type QuestionFrame } from '../frame';
import { refineGraph, type AnswerSet, type RefinedGraph } from '../graph';
import { checkOperator, WHOLE_QUESTION, type OperatorCheck } from '../operator';
import type { BioWeaveParams } from '../params';
import { canWiden, findHop, type Plan } from '../plan';
import { topicEntities, type Attempt, type RoundPlan } from '../round';
import { kgUnitOf, mergeSubgraphs, storedKgUnit, subgraphOf, type Subgraph } from '../subgraph';
import { mergeUnits, type Unit } from '../units';
import { stage, type StageUsage } from '../usage';
import { compareUnits, crossVerify } from '../verify';
import { convertSpans, keepSpansAsText, spanRef } from './convert';
import { decideRepair, type RepairDecision } from './repair';
import { selectUnits, type SelectionOutcome } from './select';
import { coverageAfter, incompleteHops, retrieveStructured, type Coverage } from './structured';
import { retrieveText, textQueries, type KeptSpan } from './unstructured';

/** What carries from round to round: the plan, the evidence memory M, the KG subgraph G_q, what each hop has tried. */
export interface RoundState {
  plan: Plan;
  /** Constraints of the question the plan could not follow (Initialisation.unfollowed). */
  unfollowed: string[];
  memory: Unit[];
  subgraph: Subgraph;
  attempts: Record<string, Attempt>;
  /** The last selection, reused when a round shows the selector the same candidates again. */
  selection: SelectionOutcome | null;
  /** Which hops' KG searches were capped or complete, over all rounds. */
  coverage: Coverage;
  /** Pairs read whole and found without an edge of the asked relation, over all rounds. */
  checks: EvidenceCheck[];
}

export interface RoundOutcome {
  round: number;
  state: RoundState;
  graph: RefinedGraph;
  check: OperatorCheck;
  decision: RepairDecision;
  usage: StageUsage[];
}

/**
 * One repair round of Algorithm 2: explore the planned sources (KG paths,
 * document and web spans converted to units), cross-verify the whole evidence
 * memory, select, refine the evidence graph, check the operator, and either
 * answer or backtrack the missing hop into the next round's plan.
 *
 * The round's state is made from its children's outputs: a resumed run replays them (`replayChildren`), so the
 * round's own output says only what it decided and what it tried, not the whole memory again.
 */
export async function weaveRound(
  ctx: MethodContext<BioWeaveParams>,
  frame: QuestionFrame,
  state: RoundState,
  spec: RoundPlan,
  optionTests: Unit[] = [],
  answerSets: AnswerSet[] = [],
): Promise<RoundOutcome> {
  let outcome: RoundOutcome | undefined;
  await ctx.trace.step(
    {
      kind: 'bioweave.round',
      label: `Round ${spec.round}`,
      input: { targetHops: spec.targetHops, sources: spec.sources, reason: spec.reason },
      replayChildren: true,
    },
    async (round) => {
      const usage: StageUsage[] = [];
      const { plan } = state;
      const topics = topicEntities(plan, frame);
      await ctx.trace.step({ kind: 'bioweave.plan', label: 'Plan and frontier', input: { round: spec.round }, parent: round }, async () => ({
        ...spec,
        frontier: Object.fromEntries(Object.entries(spec.frontier).map(([hop, nodes]) => [hop, nodes.map((n) => n.name)])),
        operator: plan.operator,
        hops: [...plan.constraints.flatMap((c) => c.hops), ...plan.claims.map((c) => c.hop)],
      }));

      let memory = state.memory;
      let subgraph = state.subgraph;
      let coverage = state.coverage;
      let checks = state.checks;
      const typedTargets = spec.targetHops.some((id) => id !== WHOLE_QUESTION);
      // The round's document queries follow from the plan alone: their reads go out while the KG paths are searched,
      // and the searches, recorded below in their order, find them read.
      if (spec.sources.includes('doc')) void ctx.channels.doc.readAhead(textQueries(plan, spec, ctx.question.text), ctx.params.wDoc);
      if (spec.sources.includes('kg') && typedTargets) {
        // The units as retrieved; a resumed run, which replays the step's output, makes them from their stored path records.
        let retrieved: Unit[] | null = null;
        const kg = await stage(
          ctx,
          { kind: 'bioweave.kg', label: 'KG paths', input: { targetHops: spec.targetHops, missingHops: spec.missingHops }, parent: round },
          'explore',
          async (step) => {
            const found = await retrieveStructured(ctx, step, plan, spec, topics);
            await ctx.trace.step({ kind: 'bioweave.subgraph', label: 'KG subgraph before and after pruning', parent: step }, async () => found.pruning);
            await ctx.trace.step({ kind: 'bioweave.paths', label: 'Paths per depth, with rank terms', parent: step }, async () => ({ depths: found.depths }));
            retrieved = found.units;
            const units = found.units.map((u) => storedKgUnit(u, found.records));
            return { searches: found.searches, capped: found.capped, notes: found.notes, units, checks: found.checks };
          },
        );
        usage.push(kg.usage);
        const units = retrieved ?? kg.output.units.map(kgUnitOf);
        memory = mergeUnits(memory, units);
        coverage = coverageAfter(coverage, kg.output.searches);
        checks = [...checks, ...kg.output.checks];
        subgraph = mergeSubgraphs(subgraph, subgraphOf(units.flatMap((u) => u.paths)));
      }

      const candidates = mentionCandidates(frame, subgraph, ctx.params.entityNormalisation);
      // The document and web queries of a round are independent of each other: both sources are searched at once.
      const texts = await Promise.all(
        (['doc', 'web'] as const)
          .filter((source) => spec.sources.includes(source))
          .map((source) =>
            stage(
              ctx,
              { kind: `bioweave.${source}`, label: source === 'doc' ? 'Documents' : 'Web', input: { targetHops: spec.targetHops }, parent: round },
              'explore',
              (step) => retrieveText(ctx, step, source, plan, spec, topics, candidates),
            ),
          ),
      );
      const spans: KeptSpan[] = texts.flatMap((text) => text.output.spans);
      usage.push(...texts.map((text) => text.usage));
      // Spans converted in an earlier round (the same sentence, wherever found) are in memory already: only new ones go to the extract role.
      const known = new Set(memory.flatMap((u) => (u.ref ? [u.ref, normalise(u.text)] : [])));
      const fresh = spans.filter((s) => !known.has(spanRef(s)) && !known.has(normalise(s.text)));
      if (fresh.length) {
        const { graphConversion } = ctx.params;
        const input = { spans: fresh.length, alreadyConverted: spans.length - fresh.length, graphConversion };
        const converted = await stage(
          ctx,
          { kind: 'bioweave.convert', label: graphConversion ? 'Evidence units' : 'Text units (graph conversion off)', input, parent: round },
          'convert',
          (step, call) =>
            graphConversion ? convertSpans(ctx, step, call, plan, spec.round, fresh, candidates) : keepSpansAsText(ctx, step, spec.round, fresh),
        );
        usage.push(converted.usage);
        memory = mergeUnits(memory, converted.output.units);
      }

      const ordered = [...memory].sort((a, b) => (b.pathScore ?? -1) - (a.pathScore ?? -1));
      const verified = await stage(
        ctx,
        { kind: 'bioweave.verify', label: 'Cross-verification', input: { units: ordered.length }, parent: round },
        'verify',
        async () => {
          const comparison = await compareUnits(ctx.model.similarity, ctx.question.text, ordered);
          return crossVerify(
            ctx.question.text,
            ordered,
            comparison,
            topics.map((t) => t.nodeId),
            new Set(subgraph.nodes.map((n) => n.nodeId)),
            ctx.params,
          );
        },
      );
      usage.push(verified.usage);

      const byId = new Map(memory.map((u) => [u.id, u]));
      const top = verified.output.top.map((id) => byId.get(id)!);
      const selection = await stage(
        ctx,
        { kind: 'bioweave.select', label: 'Selection', input: { candidates: top.length, k: ctx.params.k }, parent: round },
        'select',
        (step, call) => selectUnits(ctx, step, call, plan, topics, top, verified.output, state.selection),
      );
      usage.push(selection.usage);

      // Aid `option-tests`: the options' edges to the stem join the refined graph beside the selection.
      const selected = [...selection.output.selected.map((s) => byId.get(s.id)!), ...optionTests];
      const refined = await stage(
        ctx,
        { kind: 'bioweave.refine', label: 'Refined evidence graph', input: { units: selected.map((u) => u.id) }, parent: round },
        'refine',
        // Aid `answer-set`: the question's complete answer sets beside the refined graph.
        async () => ({
          ...refineGraph(selected, { mergeAliases: ctx.params.entityNormalisation, checks }),
          ...(answerSets.length ? { sets: answerSets } : {}),
        }),
      );
      usage.push(refined.usage);

      const checked = await stage(
        ctx,
        { kind: 'bioweave.operator', label: 'Operator check', input: { operator: plan.operator }, parent: round },
        'operator',
        async () => checkOperator(plan, frame, refined.output, state.unfollowed),
      );
      usage.push(checked.usage);

      const attempts = tried(state.attempts, plan, spec);
      const decided = await stage(
        ctx,
        { kind: 'bioweave.repair', label: 'Repair decision', input: { satisfied: checked.output.satisfied }, parent: round },
        'repair',
        (step, call) =>
          decideRepair(ctx, call, { frame, plan, spec, memory, graph: refined.output, check: checked.output, attempts, incomplete: incompleteHops(coverage) }),
      );
      usage.push(decided.usage);

      outcome = {
        round: spec.round,
        state: { plan: decided.output.plan ?? plan, unfollowed: state.unfollowed, memory, subgraph, attempts, selection: selection.output, coverage, checks },
        graph: refined.output,
        check: checked.output,
        decision: decided.output,
        usage,
      };
      const { decision, reason, missingHop } = decided.output;
      return { round: spec.round, state: { attempts, coverage }, decision: { decision, reason, missingHop }, usage };
    },
  );
  return outcome!;
}

/**
 * Entities a span can be normalised to: the linked ones (with aliases and the
 * question's spelling) and every node of G_q. Without entity normalisation
 * (Table 8) a span names an entity only by its exact KG name.
 */
function mentionCandidates(frame: QuestionFrame, subgraph: Subgraph, normalise: boolean): CandidateEntity[] {
  const linked = frameCandidates(frame).map((c) => (normalise ? c : { nodeId: c.nodeId, name: c.name, kind: c.kind }));
  const known = new Set(linked.map((c) => c.nodeId));
  return [...linked, ...subgraph.nodes.filter((n) => !known.has(n.nodeId)).map((n) => ({ nodeId: n.nodeId, name: n.name, kind: n.kind }))];
}

/** The round's retrieval, recorded per target hop, so a repair tries something new. */
function tried(attempts: Record<string, Attempt>, plan: Plan, spec: RoundPlan): Record<string, Attempt> {
  const next = { ...attempts };
  for (const id of spec.targetHops) {
    const before: Attempt = next[id] ?? { kg: 'none', kgRounds: 0, doc: 0, web: 0 };
    const hop = findHop(plan, id)?.hop;
    const searched = spec.sources.includes('kg') && !!hop;
    next[id] = {
      kg: searched ? (canWiden(hop) ? 'preferred' : 'widened') : before.kg,
      kgRounds: before.kgRounds + (searched ? 1 : 0),
      doc: before.doc + (spec.sources.includes('doc') ? 1 : 0),
      web: before.web + (spec.sources.includes('web') ? 1 : 0),
    };
  }
  return next;
}
