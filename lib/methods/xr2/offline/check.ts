/**
 * Offline Check(A_t, Q, D): the rule kit's check of the evidence against every
 * constraint of Q (sufficient), then A_t itself against what the evidence
 * supports (consistent). List and count questions are not sufficient while
 * KG candidates that cover the step entities as well as any remain unexamined. A step that brought no new
 * evidence stops the loop: re-decomposing cannot find what is not there.
 */

import { checkAnswer } from '@/lib/llm/offline/check';
import { answerFromEvidence } from '@/lib/llm/offline/reason';
import { normalise } from '@/lib/llm/offline/text';
import { bundleOf } from '../../baselines/evidence';
import { understand } from '../../baselines/offline/solve';
import type { CheckInput, CheckOutput } from '../templates';
import { wantsAll } from './reading';

const TEXT_KINDS = new Set(['passage', 'web']);

export function checkStep(input: CheckInput): CheckOutput {
  const u = understand(input.frame);
  const bundle = bundleOf(input.evidence);
  const derived = answerFromEvidence(u, bundle);
  const kit = checkAnswer(u, derived, bundle);
  const a = input.answer;

  const problems: string[] = [];
  const known = new Set(input.evidence.map((l) => l.id));
  for (const id of a.evidenceIds) if (!known.has(id)) problems.push(`the answer cites ${id}, which is not in the evidence`);
  // An answer the passages decided (yes/no) stands on them; anything else must be what the KG evidence gives.
  const cited = input.evidence.filter((l) => a.evidenceIds.includes(l.id));
  const fromPassages = !a.abstain && cited.length > 0 && cited.every((l) => TEXT_KINDS.has(l.kind));
  if (!a.abstain && !fromPassages && !derived.abstain) {
    const supported = new Set(derived.answers.map((x) => normalise(x.name)));
    const stated = a.optionKey || a.count !== null || u.outputFormat === 'yesno' ? [] : a.answer;
    for (const name of stated) if (!supported.has(normalise(name))) problems.push(`${name} does not follow from the evidence`);
    if (a.optionKey && derived.chosenOption && a.optionKey !== derived.chosenOption)
      problems.push(`the evidence supports option ${derived.chosenOption}, not ${a.optionKey}`);
    if (a.count !== null && derived.count !== undefined && a.count !== derived.count) problems.push(`the evidence gives ${derived.count}, not ${a.count}`);
  }

  const missing = fromPassages ? [] : [...kit.missing];
  if (!a.abstain && wantsAll(u) && input.unexamined > 0) {
    missing.push(
      `${input.unexamined} further KG candidate(s), ranked below the top K and covering the step entities as well as any, were not examined; they may add answers`,
    );
  }
  const sufficient = !a.abstain && (fromPassages || kit.sufficient) && missing.length === 0;
  const consistent = problems.length === 0 && (a.abstain || fromPassages || kit.consistent);
  const reason = a.abstain
    ? `abstained: ${derived.abstain ? derived.reason : 'the evidence supports an answer'}`
    : (problems[0] ?? missing[0] ?? (fromPassages ? 'the document evidence states the answer' : kit.reason));
  const stop = sufficient && consistent;
  if (!stop && input.newEvidence + input.newMemory === 0) {
    return {
      stop: true,
      sufficient,
      consistent,
      reason: `${reason}; this step brought no new evidence, so another decomposition cannot close the gap`,
      missing: [...problems, ...missing],
    };
  }
  return { stop, sufficient, consistent, reason, missing: [...problems, ...missing] };
}
