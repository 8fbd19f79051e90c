import { defineMethod } from '../types';
import { similarityName } from '@/lib/trace/steps/common';
import './offline';
import { RegramParamsSchema } from './params';
import { REVIEWER_SUBSTITUTE } from './review';
import { decompose, type HopPlan } from './stages/decompose';
import { typeDomain } from './stages/domain';
import { readCountsAhead, reasonHop, type HopResult } from './stages/hop';
import { readQuestion } from './stages/read';
import { buildEvidenceMap, synthesize } from './stages/synthesize';

/**
 * ReGraM (regram.txt, Algorithm 1): type the query's domain, decompose it
 * into at most H hops, and for each hop build a query-aligned KG region
 * (linking, candidate triples, domain-weighted MMR) and reason strictly inside
 * it in the mode its size calls for; then synthesise the evidence map into the
 * final answer.
 */
export const regram = defineMethod({
  id: 'regram',
  name: 'ReGraM',
  source: 'Region-first knowledge-graph reasoning for medical QA',
  description:
    'Region-first reasoning: per hop, a query-aligned KG region of K triples chosen by domain-weighted MMR; the hop is answered only ' +
    'inside it (KG-STRICT), completed with Reviewer-verified hypotheses (HYBRID), or from general knowledge said as such (LLM-GUESS).',
  params: RegramParamsSchema,
  deviations: (p) => [
    ...(p.reviewer
      ? [
          "Reviewer: a judge call plus a programmatic check (entity in the region, relation allowed, triple in the KG) stands in for the paper's LoRA-tuned classifier",
        ]
      : []),
    `not in the paper: at most ${p.hubCap} candidate triples per linked node (hubCap; an MCQ option's direct edges to a linked node are read beyond it, as the paper's uncapped T_cand holds them) and ${p.maxHypotheses} hypotheses per HYBRID hop (maxHypotheses)`,
    ...(p.optionSeeds ? ['not in the paper: MCQ options seed every hop (optionSeeds)'] : []),
    "the paper's per-role max-token limits are not applied (JSON outputs would be cut)",
  ],
  async run(ctx) {
    const frame = await readQuestion(ctx);
    await readCountsAhead(ctx, frame);
    // Domain typing and decomposition both read only the question: asked together.
    const [typing, plan] = await Promise.all([typeDomain(ctx, frame), decompose(ctx, frame)]);

    const hops: HopResult[] = [];
    const ended: { hop: number; why: string }[] = [];
    for (const hop of plan.hops) {
      const why = chainEnd(hop, hops, ended);
      if (why) {
        // "These" would name nothing: the hop is not run on an empty set, and the trace says why.
        await ctx.trace.skipped({ kind: 'regram.hop', label: `Hop ${hop.hop}`, input: { question: hop.question, usesHop: hop.usesHop } }, why);
        ended.push({ hop: hop.hop, why });
      } else hops.push(await reasonHop(ctx, frame, typing, hop, hops));
    }

    const map = await buildEvidenceMap(ctx, hops);
    const answer = await synthesize(ctx, frame, map, hops);
    return {
      ...answer,
      extra: {
        domain: typing.domain,
        decomposition: { hops: plan.hops.length, fallback: plan.fallback },
        ...(ended.length ? { chainEnded: ended } : {}),
        hops: hops.map((h) => ({ hop: h.hop, question: h.question, mode: h.mode, nFacts: h.region.edges.length, hypotheses: h.hypotheses.length })),
        similarity: similarityName(ctx.model.similarity.current()),
        reviewer: REVIEWER_SUBSTITUTE,
      },
    };
  },
});

/** Why a hop that builds on an earlier one is not run: that hop found nothing (or was itself not run). */
function chainEnd(hop: HopPlan, done: HopResult[], ended: { hop: number }[]): string | null {
  if (hop.usesHop === null) return null;
  if (ended.some((e) => e.hop === hop.usesHop)) return `hop ${hop.usesHop} was not run, so this hop has nothing to start from: the chain ends`;
  const prior = done.find((h) => h.hop === hop.usesHop);
  return prior && (prior.answer.abstain || !prior.entities.length)
    ? `hop ${hop.usesHop} found no answer, so "these" in this hop names nothing: the chain ends`
    : null;
}
