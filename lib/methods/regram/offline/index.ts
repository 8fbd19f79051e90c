import { offlineRule } from '@/lib/llm/offline-backend';
import {
  answerGuessTemplate,
  answerHybridTemplate,
  answerStrictTemplate,
  classifyTemplate,
  decomposeTemplate,
  hypothesizeTemplate,
  reviewTemplate,
  reviseTemplate,
  synthesizeTemplate,
} from '../templates';
import { answerHopFromFacts, guessWithoutKnowledge, synthesizeFromMap } from './answering';
import { classifyDomain, decomposeQuestion } from './planning';
import { hypothesizeCompletions, judgeByCheck, reviseRelation } from './reviewing';

/** How the offline engine (no language model) plays each ReGraM role. */
offlineRule(classifyTemplate, classifyDomain);
offlineRule(decomposeTemplate, decomposeQuestion);
offlineRule(answerStrictTemplate, answerHopFromFacts);
offlineRule(answerHybridTemplate, answerHopFromFacts);
offlineRule(answerGuessTemplate, guessWithoutKnowledge);
offlineRule(hypothesizeTemplate, hypothesizeCompletions);
offlineRule(reviewTemplate, judgeByCheck);
offlineRule(reviseTemplate, reviseRelation);
offlineRule(synthesizeTemplate, synthesizeFromMap);
