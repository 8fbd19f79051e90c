import { z } from 'zod';
import { readJsonFile } from './read';
import { zodReason } from './errors';
import { OPTION_KEY, isPlainObject, isYesNo, optionGold, type ParsedSet } from './parsed';

const Item = z
  .object({
    question: z.string().trim().min(1, 'empty question'),
    options: z.record(z.string().regex(OPTION_KEY, 'option keys are capital letters'), z.string()),
    answer: z.string(),
  })
  .refine((i) => Object.keys(i.options).length >= 2, 'fewer than two options')
  .refine((i) => i.answer in i.options, 'the answer is not one of the option keys');

/**
 * MIRAGE (`{dataset: {id: {question, options, answer}}}`) as one set whose
 * family is the sub-dataset (medqa, medmcqa, pubmedqa, bioasq, mmlu). MCQ,
 * except items whose options are only yes/no/maybe, which are yes/no questions
 * that keep their options.
 */
export function parseMirage(file: string): ParsedSet {
  const root = readJsonFile(file);
  if (!isPlainObject(root) || !Object.values(root).every(isPlainObject)) {
    return { questions: [], issues: [{ file, reason: 'not MIRAGE: expected {dataset: {id: {question, options, answer}}}' }] };
  }
  const parsed: ParsedSet = { questions: [], issues: [] };
  for (const [dataset, items] of Object.entries(root as Record<string, Record<string, unknown>>)) {
    for (const [id, raw] of Object.entries(items)) {
      const item = Item.safeParse(raw);
      if (!item.success) {
        parsed.issues.push({ file, at: `${dataset}/${id}`, reason: zodReason(item.error) });
        continue;
      }
      const { question, options, answer } = item.data;
      parsed.questions.push({
        text: question,
        options,
        answer: optionGold(options, answer),
        answerType: isYesNo(options) ? 'yesno' : 'mcq',
        family: dataset,
        meta: { dataset, id },
      });
    }
  }
  return parsed;
}
