import { offlineRule } from '@/lib/llm/offline-backend';
import { union } from '../candidate';
import {
  correctReasoningTemplate,
  correctTemplate,
  evaluateTemplate,
  generateTemplate,
  injectorTemplate,
  monitorTemplate,
  proposeTemplate,
  querierTemplate,
  rankTemplate,
  refineReasoningTemplate,
  refineTemplate,
} from '../templates';
import { monitorWindow, writeAside, writeQuery } from './monitoring';
import { continueReasoning, reasoningPlan, revisionPlan } from './reasoning';
import { correctSolution, evaluateSolution, proposeSolution, rankCandidates, refineSolution, understand } from './solving';

/** How the offline engine (no language model) plays each EIGEN-1 role. */
offlineRule(generateTemplate, (input, ctx) => continueReasoning(reasoningPlan(understand(input.frame), input.proposer), ctx.assistantPrefix ?? ''));
offlineRule(monitorTemplate, monitorWindow);
offlineRule(querierTemplate, writeQuery);
offlineRule(injectorTemplate, writeAside);
offlineRule(correctReasoningTemplate, (input, ctx) =>
  continueReasoning(revisionPlan(understand(input.frame), input.candidate.evidence, 'the candidate'), ctx.assistantPrefix ?? ''),
);
offlineRule(refineReasoningTemplate, (input, ctx) => {
  const evidence = union(...[input.anchor, ...input.references].map((v) => v.evidence));
  return continueReasoning(revisionPlan(understand(input.frame), evidence, 'the anchor with its references'), ctx.assistantPrefix ?? '');
});
offlineRule(proposeTemplate, proposeSolution);
offlineRule(correctTemplate, correctSolution);
offlineRule(refineTemplate, refineSolution);
offlineRule(evaluateTemplate, evaluateSolution);
offlineRule(rankTemplate, rankCandidates);
