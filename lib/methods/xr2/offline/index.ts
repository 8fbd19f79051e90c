import { offlineRule } from '@/lib/llm/offline-backend';
import { checkTemplate, decomposeTemplate, extractTemplate, reasonTemplate } from '../templates';
import { checkStep } from './check';
import { decomposeQuestion } from './decompose';
import { extractCues } from './extract';
import { reasonFromEvidence } from './reason';

/** How the offline engine (no language model) plays X-R2's roles; recall is the param channel's (no claims offline). */
offlineRule(decomposeTemplate, decomposeQuestion);
offlineRule(extractTemplate, extractCues);
offlineRule(reasonTemplate, reasonFromEvidence);
offlineRule(checkTemplate, checkStep);
