/**
 * The offline checklist and judge. The checklist instantiates the question's
 * own constraints from its understanding (what kind of answer, which relation
 * to which named entity, which output form, the gold answer when known); the
 * judge runs the programmatic checks of checks.ts.
 */

import { offlineRule } from '@/lib/llm/offline-backend';
import { readQuestion } from '@/lib/reading';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { checkCriterion } from './checks';
import { checklistTemplate, judgeTemplate, type ChecklistInput } from './templates';

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

function constraintCriteria(u: QuestionReading): string[] {
  const out: string[] = [];
  if (u.answerKind && !u.propositions.length && u.outputFormat !== 'count' && u.outputFormat !== 'yesno') {
    const kind = u.answerKind.toLowerCase();
    out.push(`The answer names ${article(kind)} ${kind}.`);
  }
  for (const a of u.anchors) {
    const hop = a.chain[0];
    // Only a one-hop, positive constraint has a triple the answer must cite; chains and negations are judged by the general criteria.
    if (!hop || a.negated || a.chain.length > 1 || u.propositions.length) continue;
    out.push(
      `The answer is supported by ${article(hop.from)} ${hop.from}–${hop.to} (${hop.edges.map((e) => e.metaedge).join('/')}) relation to ${a.entity.name}.`,
    );
  }
  for (const p of u.propositions) out.push(`The answer rests on evidence about ${p.subject.name} and ${p.object.name}.`);
  return out;
}

function formCriterion(input: ChecklistInput): string | null {
  switch (input.answerType) {
    case 'count':
      return 'The count is stated as an integer.';
    case 'yesno':
      return 'The answer is stated as yes or no.';
    case 'mcq':
      return 'The answer chooses exactly one of the options.';
    default:
      return null;
  }
}

function goldCriterion(input: ChecklistInput): string | null {
  const gold = input.gold;
  if (!gold) return null;
  if (input.answerType === 'mcq' && gold.key) return `The answer chooses option ${gold.key} (${input.options?.[gold.key] ?? gold.text}).`;
  if (input.answerType === 'count' && gold.count !== null) return `The count stated is ${gold.count}.`;
  if (input.answerType === 'yesno') return `The answer is ${gold.text.trim().toLowerCase()}.`;
  return gold.text.trim() ? `The answer identifies ${gold.text.trim()}.` : null;
}

offlineRule(checklistTemplate, (input) => {
  const u = readQuestion(input.question, { links: input.entities, options: input.options ?? undefined, optionLinks: input.optionLinks });
  const criteria = [...constraintCriteria(u), formCriterion(input), goldCriterion(input)].filter((c): c is string => !!c);
  return { criteria: [...new Set(criteria)].slice(0, 12) };
});

offlineRule(judgeTemplate, (input) => checkCriterion(input.criterion, input.reasoning));
