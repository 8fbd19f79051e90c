import { offlineRule } from '@/lib/llm/offline-backend';
import {
  correctTemplate,
  evaluateTemplate,
  generateTemplate,
  injectorTemplate,
  monitorTemplate,
  proposeTemplate,
  querierTemplate,
  rankTemplate,
  refineTemplate,
} from '../templates';
import { monitorWindow, writeAside, writeQuery } from './monitoring';
import { continueReasoning, reasoningPlan } from './reasoning';
import { correctSolution, evaluateSolution, proposeSolution, rankCandidates, refineSolution, understand } from './solving';

/** How the offline engine (no language model) plays each EIGEN-1 role. */
offlineRule(generateTemplate, (input, ctx) => continueReasoning(reasoningPlan(understand(input.frame), input.proposer), ctx.assistantPrefix ?? ''));
offlineRule(monitorTemplate, monitorWindow);
offlineRule(querierTemplate, writeQuery);
offlineRule(injectorTemplate, writeAside);
offlineRule(proposeTemplate, proposeSolution);
offlineRule(correctTemplate, correctSolution);
offlineRule(refineTemplate, refineSolution);
offlineRule(evaluateTemplate, evaluateSolution);
offlineRule(rankTemplate, rankCandidates);
