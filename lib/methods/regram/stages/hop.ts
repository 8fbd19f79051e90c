import { relationTotals } from '@/lib/channels/relation-totals';
import type { MethodContext } from '../../types';
import type { RegramParams } from '../params';
import type { Region } from '../region';
import type { Fact, HopAnswer, HopMemory, HopQuestion, Mode, QuestionFrame, RegionEntity } from '../templates';
import { answerHop } from './answer';
import { collectCandidates } from './candidates';
import type { HopPlan } from './decompose';
import type { DomainTyping } from './domain';
import { verifyHypotheses } from './hypotheses';
import { linkHop } from './link';
import { decideMode, selectRegion } from './region';

/** Where an MCQ option stands in a hop: in the region, scored as a candidate but not selected, or not in T_cand at all. */
export interface OptionPlace {
  option: string;
  name: string;
  place: 'region' | 'candidate' | 'outside';
  /** Its direct KG edges to the hop's linked nodes, and how many of them the hub cap had left out. */
  edges: number;
  beyondCap: number;
}

export interface HopResult {
  hop: number;
  question: string;
  usesHop: number | null;
  mode: Mode;
  region: Region;
  /** Accepted hypotheses (HYBRID). */
  hypotheses: Fact[];
  answer: HopAnswer;
  entities: RegionEntity[];
  /** MCQ: each option's place in this hop (empty without options). */
  options: OptionPlace[];
}

export function memoryOf(h: HopResult): HopMemory {
  return { hop: h.hop, question: h.question, mode: h.mode, answer: h.answer.answer, items: h.entities, abstained: h.answer.abstain };
}

/**
 * The question's linked nodes' relation counts, read while the query is typed and decomposed: a hop's linked nodes
 * are mostly the question's, so its totals find them read (relationCounts; a hop's other nodes are read there).
 */
export async function readCountsAhead(ctx: MethodContext<RegramParams>, frame: QuestionFrame): Promise<void> {
  const links = [...frame.entities, ...(ctx.params.optionSeeds ? Object.values(frame.optionLinks).flat() : [])];
  if (!links.length) return;
  ctx.channels.kg.relationCounts([...new Set(links.map((l) => l.nodeId))]).catch(() => undefined); // a failed read fails the hop that shares it; a later one reads again
  await readsGoOut();
}

/**
 * One turn for reads just started to go out: pg sends a statement only when the run next waits on the event loop, and
 * awaits of promises already settled (the candidates, the MMR, the region) never do, so a read "started early" would
 * leave only after them.
 */
function readsGoOut(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}

/**
 * One hop q_i (Algorithm 1, phase 2): link, collect candidates, weighted MMR
 * into the region G_q, pick the mode by N_facts, verify hypotheses in HYBRID,
 * and answer inside the region. Earlier hops are the context C; the hop this
 * one builds on lends its answers as anchors.
 */
export async function reasonHop(
  ctx: MethodContext<RegramParams>,
  frame: QuestionFrame,
  typing: DomainTyping,
  plan: HopPlan,
  earlier: HopResult[],
): Promise<HopResult> {
  return ctx.trace.step({ kind: 'regram.hop', label: `Hop ${plan.hop}`, input: { question: plan.question, usesHop: plan.usesHop } }, async (step) => {
    const context = earlier.map(memoryOf);
    const prior = context.find((c) => c.hop === plan.usesHop) ?? null;
    const linking = await linkHop(ctx, step, frame, { hop: plan.hop, question: plan.question, prior });
    // The totals need the linked nodes' relation counts and the region: the counts are read while the region is built.
    const counts = ctx.channels.kg.relationCounts([...new Set(linking.nodes.map((n) => n.nodeId))]);
    counts.catch(() => undefined); // awaited with the totals, where a failure fails the hop
    await readsGoOut(); // before the candidates, MMR and region, not after them
    const optionNodes = Object.entries(frame.optionLinks).flatMap(([key, links]) => links.map((l) => ({ key, nodeId: l.nodeId, name: l.name, kind: l.kind })));
    const candidates = await collectCandidates(ctx, step, linking, typing.domain, optionNodes);
    const { region } = await selectRegion(ctx, step, linking, candidates, typing.domain);
    const { mode } = await decideMode(ctx, step, region);
    // The size of what the region is cut from, per relation at the hop's linked nodes, read from the KG.
    const seeds = linking.nodes.map((n) => ({ node: { id: n.nodeId, name: n.name } }));
    const totals = await relationTotals(ctx.channels.kg, seeds, region.edges, {
      counts,
      ...(seeds.length > 1 ? { together: `the hop's ${seeds.length} entities` } : {}),
    });
    const hop: HopQuestion = {
      hop: plan.hop,
      question: plan.question,
      links: linking.links,
      prior,
      context,
      candidates: candidates.records.length - candidates.duplicates,
      totals: totals.map((t) => t.text),
    };
    const hypotheses = mode === 'HYBRID' ? (await verifyHypotheses(ctx, step, hop, region)).accepted : [];
    const outcome = await answerHop(ctx, step, hop, mode, region, hypotheses);
    const options = candidates.optionEdges.map((o) => ({
      option: o.option,
      name: o.name,
      place: region.nodes.some((n) => n.nodeId === o.nodeId) ? ('region' as const) : o.edges ? ('candidate' as const) : ('outside' as const),
      edges: o.edges,
      beyondCap: o.beyondCap,
    }));
    return {
      hop: plan.hop,
      question: plan.question,
      usesHop: plan.usesHop,
      mode,
      region,
      hypotheses,
      answer: outcome.answer,
      entities: outcome.entities,
      options,
    };
  });
}
