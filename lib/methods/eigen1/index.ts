import { defineMethod } from '../types';
import { toMethodAnswer } from './answer';
import { Lineage } from './lineage';
import './offline';
import { Eigen1ParamsSchema } from './params';
import { retrieveUpFront } from './stages/explicit-rag';
import { propose } from './stages/propose';
import { qualityAwareIteration } from './stages/qair';
import { readQuestion } from './stages/read';
import { selectBest } from './stages/rank';
import { correctProposals, refineHierarchically } from './stages/refine';
import { totalUsage } from './usage';

/**
 * EIGEN-1 (eigen1.txt): K proposers, then an optional corrector, Hierarchical
 * Solution Refinement, Quality-Aware Iterative Reasoning and a ranker, with
 * monitor-based RAG in every role that writes reasoning (proposers,
 * correctors, HSR refiners). The trace keeps the reasoning streams with their
 * monitor windows and injected (not model-written) asides, and the candidate
 * lineage graph as an 'eigen1.lineage' step.
 */
export const eigen1 = defineMethod({
  id: 'eigen1',
  name: 'EIGEN-1',
  source: 'Adaptive multi-agent scientific reasoning with monitor-based RAG',
  description:
    'Proposers reason in a stream watched by a monitor that injects retrieved documents and KG facts as first-person asides; ' +
    'candidates are corrected, refined anchor-by-anchor against their peers (HSR), scored and re-corrected until they pass (QAIR), and ranked.',
  params: Eigen1ParamsSchema,
  deviations: (p) => [
    ...(p.monitor
      ? []
      : [
          "explicit RAG is one retrieval up front with the question (its KG budget split across the question's entities); the paper's proposers call a search tool mid-reasoning",
        ]),
    "correctors and HSR refiners write their reasoning, then state the structured solution in a second call (the paper's agents write one text)",
    "QAIR's evaluator and the ranker judge without a monitor",
  ],
  plannedStages: (params) => ({ 'eigen1.proposer': params.k }),
  async run(ctx) {
    const lineage = new Lineage();
    const read = await readQuestion(ctx);
    // Monitor off (Table 3's explicit-RAG rows): the question's retrieval goes into every prompt before reasoning.
    const frame = ctx.params.monitor ? read : await retrieveUpFront(ctx, read);

    const proposals = await propose(ctx, frame, lineage);
    let candidates = proposals.map((p) => p.candidate);
    const corrected = ctx.params.corrector ? await correctProposals(ctx, frame, candidates, lineage) : null;
    if (corrected) candidates = corrected.candidates;
    const refined = await refineHierarchically(ctx, frame, candidates, lineage);
    const qair = await qualityAwareIteration(ctx, frame, refined.candidates, lineage);
    const selection = await selectBest(ctx, frame, qair.assessed, lineage);

    const graph = lineage.graph();
    await ctx.trace.step({ kind: 'eigen1.lineage', label: 'Candidate lineage', input: { nodes: graph.nodes.length } }, async () => graph);
    const usage = totalUsage([...proposals.flatMap((p) => p.usage), ...(corrected?.usage ?? []), ...refined.usage, ...qair.usage, selection.usage]);
    return toMethodAnswer(selection.chosen.candidate, {
      selected: selection.chosen.candidate.id,
      q: selection.chosen.quality.q,
      scores: selection.chosen.quality.scores,
      rankerReason: selection.reason,
      injections: proposals.map((p) => p.injections),
      usage,
    });
  },
});
