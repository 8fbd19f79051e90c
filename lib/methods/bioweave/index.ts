import { defineMethod } from '../types';
import './offline';
import { BioWeaveParamsSchema } from './params';
import { firstRound, type RoundPlan } from './round';
import { generateAnswer } from './stages/answer';
import { initialise } from './stages/initialise';
import { testOptions } from './stages/option-tests';
import { readAnswerSet } from './stages/answer-set';
import { weaveRound, type RoundOutcome, type RoundState } from './stages/round';
import type { StageUsage } from './usage';

/**
 * BioWeave (bioweave-biomedhop.txt, Algorithm 2): abstract the question into an
 * operator, typed hops and a source plan; then up to T rounds of explore →
 * cross-verify → refine → operator check, each failed check backtracking the
 * missing hop into a round that retries only that hop; the answer comes from
 * the refined evidence graph alone, or says which hop is missing.
 */
export const bioweave = defineMethod({
  id: 'bioweave',
  name: 'BioWeave',
  source: 'Tan et al. 2026: weaving multi-source evidence for biomedical reasoning',
  description:
    'Weaves KG paths, document spans and web spans into one evidence graph: typed path expansion and bidirectional search, ' +
    'hop-level text queries converted to evidence units, cross-verification by relevance, source prior, cross-source support and ' +
    'KG grounding, selection, alias-merged refinement, and an operator check that repairs the missing hop before answering.',
  params: BioWeaveParamsSchema,
  deviations: () => [
    "PruneSubgraph drops nodes of kinds the plan never reaches and relations it never follows; the paper's frequent-node criterion is left to retrieval order (least-connected neighbours first)",
    'query building (BuildHopQueries, BuildTargetedQueries) is by rule from the plan, not a model call',
  ],
  async run(ctx) {
    const init = await initialise(ctx);
    const { frame, plan, unfollowed } = init.output;
    const optionTests = await testOptions(ctx, frame);
    const answerSets = await readAnswerSet(ctx, frame);
    const usage: StageUsage[] = [init.usage];
    let state: RoundState = {
      plan,
      unfollowed,
      memory: [],
      subgraph: { nodes: [], edges: [] },
      attempts: {},
      selection: null,
      coverage: { capped: [], complete: [] },
      checks: [],
    };
    let spec: RoundPlan | null = firstRound(plan, frame);
    let last: RoundOutcome | null = null;
    // The repair decision stops after round T, so the loop ends within T rounds.
    while (spec) {
      last = await weaveRound(ctx, frame, state, spec, optionTests, answerSets);
      usage.push(...last.usage);
      state = last.state;
      spec = last.decision.next;
    }
    return generateAnswer(ctx, frame, last!, usage);
  },
});
