import { z } from 'zod';
import type { AnswerType, MethodAnswer } from '@/lib/methods/types';
import { normaliseAnswer } from './normalise';

/** A gold answer as stored on a question. */
export const GoldAnswerSchema = z.object({
  key: z.string().optional(),
  text: z.string().default(''),
  aliases: z.array(z.string()).default([]),
  nodeIds: z.array(z.string()).default([]),
  count: z.number().int().optional(),
  list: z.array(z.string()).optional(),
  /** Field-type list tasks: overlap or substring either way counts. */
  field: z.boolean().optional(),
});
export type GoldAnswer = z.infer<typeof GoldAnswerSchema>;

export interface AnswerScore {
  correct: boolean;
  abstained: boolean;
  /** Share of answer claims linked to at least one evidence record (null: no claims). */
  grounding: number | null;
  /** Why it scored as it did, for the run page. */
  detail: string;
}

const ABSTAIN = /^(i don'?t know|unknown|cannot (be )?determine[d]?|insufficient (evidence|information)|abstain|n\/a|none)$/;

export function isAbstention(answer: Pick<MethodAnswer, 'text' | 'abstained'>): boolean {
  return answer.abstained || !answer.text.trim() || ABSTAIN.test(normaliseAnswer(answer.text));
}

export function groundingRate(answer: Pick<MethodAnswer, 'claims'>): number | null {
  if (!answer.claims.length) return null;
  return answer.claims.filter((c) => c.evidenceIds.length > 0).length / answer.claims.length;
}

/** Scores one answer against gold, per METHODS.md §0 "Scoring". */
export function scoreAnswer(answerType: AnswerType, gold: GoldAnswer, answer: MethodAnswer, options: Record<string, string> | null = null): AnswerScore {
  const grounding = groundingRate(answer);
  if (isAbstention(answer)) return { correct: false, abstained: true, grounding, detail: 'abstained (counts as incorrect)' };
  const verdict = judge(answerType, gold, answer, options);
  return { ...verdict, abstained: false, grounding };
}

function judge(answerType: AnswerType, gold: GoldAnswer, answer: MethodAnswer, options: Record<string, string> | null) {
  switch (answerType) {
    case 'mcq':
      return judgeMcq(gold, answer, options);
    case 'count':
      return judgeCount(gold, answer);
    case 'list':
      return judgeList(gold, answer);
    default:
      return judgeOpen(gold, answer);
  }
}

function judgeMcq(gold: GoldAnswer, answer: MethodAnswer, options: Record<string, string> | null) {
  const goldKey = gold.key?.toUpperCase();
  const goldText = goldKey && options?.[goldKey] ? options[goldKey] : gold.text;
  const chosenKey = (answer.optionKey ?? optionKeyIn(answer.text, options))?.toUpperCase();
  if (chosenKey && goldKey) return { correct: chosenKey === goldKey, detail: `chose ${chosenKey}, gold ${goldKey}` };
  const correct = normaliseAnswer(answer.text) === normaliseAnswer(goldText);
  return { correct, detail: `option text ${correct ? 'equals' : 'differs from'} the gold option` };
}

/**
 * The exact text of an option, or "B", "B.", "(B)", "Answer: B". The text is
 * tried first: an option such as "A disintegrin …" must not read as letter A.
 */
export function optionKeyIn(text: string, options: Record<string, string> | null): string | null {
  const norm = normaliseAnswer(text);
  const byText = options ? Object.entries(options).find(([, v]) => normaliseAnswer(v) === norm)?.[0] : undefined;
  if (byText) return byText;
  const m = /^\s*(?:answer\s*[:\-]?\s*)?\(?([A-E])\)?(?:[.):\s]|$)/i.exec(text);
  return m ? m[1].toUpperCase() : null;
}

function judgeOpen(gold: GoldAnswer, answer: MethodAnswer) {
  const accepted = new Set([gold.text, ...gold.aliases].map(normaliseAnswer).filter(Boolean));
  const given = [answer.text, ...(answer.items ?? [])].map(normaliseAnswer);
  const byNode = gold.nodeIds.length > 0 && (answer.nodeIds ?? []).some((id) => gold.nodeIds.includes(id));
  const correct = byNode || given.some((g) => accepted.has(g));
  return { correct, detail: correct ? 'matches the gold entity or an alias' : 'no match with the gold entity or its aliases' };
}

function judgeCount(gold: GoldAnswer, answer: MethodAnswer) {
  const stated = answer.count ?? Number((/-?\d+/.exec(answer.text) ?? [])[0]);
  const correct = Number.isFinite(stated) && stated === gold.count;
  return { correct, detail: `stated ${Number.isFinite(stated) ? stated : 'no number'}, gold ${gold.count}` };
}

function judgeList(gold: GoldAnswer, answer: MethodAnswer) {
  const predicted = (answer.items?.length ? answer.items : answer.text.split(/[;\n]|,\s/)).map(normaliseAnswer).filter(Boolean);
  const expected = (gold.list ?? [gold.text]).map(normaliseAnswer).filter(Boolean);
  if (!predicted.length) return { correct: false, detail: 'empty list' };
  if (gold.field) {
    const correct = expected.some((g) => predicted.some((p) => p === g || p.includes(g) || g.includes(p)));
    return { correct, detail: correct ? 'overlaps the gold field' : 'no overlap with the gold field' };
  }
  const missing = expected.filter((g) => !predicted.includes(g));
  return { correct: missing.length === 0, detail: missing.length ? `missing ${missing.length} of ${expected.length} gold items` : 'gold ⊆ predicted' };
}
