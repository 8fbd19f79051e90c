import { z } from 'zod';
import { splitPassages } from '@/lib/corpus/attach';
import { normaliseAnswer } from '@/lib/eval/normalise';
import { getNodes } from '@/lib/kg';
import type { GoldAnswer } from '@/lib/eval/scoring';
import type { NewQuestion, QuestionDocument } from '@/lib/eval/sets';
import type { AnswerType } from '@/lib/methods/types';
import { readSetFile } from './read';
import { zodReason } from './errors';
import { OPTION_KEY, type ParsedSet } from './parsed';

/**
 * The generic question format: JSON Lines, one question per line (blank lines
 * are skipped). Fields:
 *
 *   question     string, required
 *   answer       required: a string, a number (count) or a list of strings
 *   options      {"A": "...", "B": "..."}: makes an MCQ; the answer is a key or an option's text
 *   answer_type  mcq | open | count | list | yesno; inferred when absent: options → mcq,
 *                number → count, list → list, "yes"/"no"/"maybe" → yesno, else open
 *   documents    [{"title"?: "...", "text": "..."}] or ["text", ...]: stored and attached to the question
 *   gold_nodes   ["Disease::DOID:1612", ...]: KG node ids of the answer (must exist)
 *   family       a label to group questions by
 *   id           the question's own id, kept in its meta
 *   meta         any JSON object, kept as is
 *
 * e.g. {"question": "Which gene is associated with both asthma and psoriasis?", "answer": "IL13", "gold_nodes": ["Gene::3596"]}
 * Unknown fields are errors, so a misspelt field never passes silently.
 */
const Line = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    question: z.string().trim().min(1, 'empty question'),
    options: z.record(z.string().regex(OPTION_KEY, 'option keys are capital letters'), z.string().min(1)).optional(),
    answer: z.union([z.string(), z.number(), z.array(z.string())]),
    answer_type: z.enum(['mcq', 'open', 'count', 'list', 'yesno']).optional(),
    family: z.string().min(1).optional(),
    documents: z.array(z.union([z.string().min(1), z.object({ title: z.string().optional(), text: z.string().min(1) }).strict()])).optional(),
    gold_nodes: z.array(z.string().min(1)).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
type Line = z.infer<typeof Line>;

export function parseJsonl(file: string): ParsedSet {
  const parsed: ParsedSet = { questions: [], issues: [] };
  readSetFile(file)
    .split('\n')
    .forEach((text, i) => {
      const at = `line ${i + 1}`;
      if (!text.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (e) {
        return void parsed.issues.push({ file, at, reason: `not JSON: ${(e as Error).message}` });
      }
      const line = Line.safeParse(raw);
      if (!line.success) return void parsed.issues.push({ file, at, reason: zodReason(line.error) });
      const question = toQuestion(line.data, i + 1);
      if (typeof question === 'string') return void parsed.issues.push({ file, at, reason: question });
      parsed.questions.push(question);
    });
  return parsed;
}

/** The question a valid line describes, or why its answer does not fit its type. */
function toQuestion(line: Line, lineNumber: number): NewQuestion | string {
  const answerType = line.answer_type ?? inferAnswerType(line);
  const gold = goldAnswer(line, answerType);
  if (typeof gold === 'string') return gold;
  return {
    text: line.question,
    options: line.options ?? null,
    answer: { ...gold, aliases: [], nodeIds: line.gold_nodes ?? [] },
    answerType,
    family: line.family ?? null,
    documents: line.documents?.map(toDocument),
    meta: { ...line.meta, line: lineNumber, ...(line.id === undefined ? {} : { id: line.id }) },
  };
}

function inferAnswerType(line: Line): AnswerType {
  if (line.options) return 'mcq';
  if (typeof line.answer === 'number') return 'count';
  if (Array.isArray(line.answer)) return 'list';
  return /^(yes|no|maybe)$/i.test(line.answer.trim()) ? 'yesno' : 'open';
}

function goldAnswer(line: Line, answerType: AnswerType): Omit<GoldAnswer, 'aliases' | 'nodeIds'> | string {
  const { answer, options } = line;
  if (answerType === 'list') {
    const list = (Array.isArray(answer) ? answer : [String(answer)]).map((s) => s.trim()).filter(Boolean);
    return list.length ? { text: list.join('; '), list } : 'a list answer needs at least one item';
  }
  if (Array.isArray(answer)) return `a list answer does not fit answer_type ${answerType}`;
  const text = String(answer).trim();
  if (answerType === 'count') {
    return /^\d+$/.test(text) ? { text, count: Number(text) } : 'a count answer must be a whole number';
  }
  if (answerType === 'yesno' && !/^(yes|no|maybe)$/i.test(text)) return 'a yes/no answer must be yes, no or maybe';
  if (answerType === 'mcq') {
    if (!options || Object.keys(options).length < 2) return 'an MCQ needs at least two options';
    const key = text in options ? text : Object.keys(options).find((k) => normaliseAnswer(options[k]) === normaliseAnswer(text));
    return key ? { key, text: options[key] } : 'the answer is neither an option key nor the text of an option';
  }
  return text ? { text } : 'empty answer';
}

function toDocument(doc: string | { title?: string; text: string }): QuestionDocument {
  const { title, text } = typeof doc === 'string' ? { title: undefined, text: doc } : doc;
  return { title: title ?? null, sections: splitPassages(text).map((s) => ({ text: text.slice(s.start, s.end) })) };
}

/** Gold node ids must name KG nodes: reports each unknown one at its line. */
export async function checkGoldNodes(file: string, parsed: ParsedSet): Promise<void> {
  const ids = [...new Set(parsed.questions.flatMap((q) => q.answer.nodeIds))];
  if (!ids.length) return;
  const known = new Set((await getNodes(ids)).map((n) => n.id));
  for (const q of parsed.questions) {
    for (const id of q.answer.nodeIds.filter((n) => !known.has(n)))
      parsed.issues.push({ file, at: `line ${q.meta?.line}`, reason: `gold node ${id} is not in the KG` });
  }
}
