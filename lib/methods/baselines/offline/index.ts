import { offlineRule } from '@/lib/llm/offline-backend';
import { cotTemplate, directTemplate, kgRagTemplate, type AnswerInput } from '../templates';
import { reasonStepByStep } from './cot';
import { solveFromEvidence } from './solve';

/** How the offline engine (no language model) plays the baselines' answer call: from the context lines only. */
const answerFromContext = (input: AnswerInput) =>
  solveFromEvidence(
    input.frame,
    input.blocks.flatMap((b) => b.lines),
  ).solution;

offlineRule(directTemplate, answerFromContext);
offlineRule(kgRagTemplate, answerFromContext);
offlineRule(cotTemplate, reasonStepByStep);
