import { offlineRule } from '@/lib/llm/offline-backend';
import { answerTemplate, convertTemplate, initTemplate, repairTemplate, selectTemplate } from '../templates';
import { answerOffline } from './answer';
import { convertSpansOffline } from './convert';
import { planQuestion } from './plan';
import { decideRepairOffline } from './repair';
import { selectUnitsOffline } from './select';

/** How the offline engine (no language model) plays each BioWeave role. */
offlineRule(initTemplate, planQuestion);
offlineRule(convertTemplate, convertSpansOffline);
offlineRule(selectTemplate, selectUnitsOffline);
offlineRule(repairTemplate, decideRepairOffline);
offlineRule(answerTemplate, answerOffline);
