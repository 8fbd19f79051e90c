import { z } from 'zod';
import { readJsonFile } from './read';
import { zodReason } from './errors';
import { optionGold, type ParsedSet } from './parsed';

const Item = z.object({
  query: z.string().min(1, 'empty query'),
  answer: z.string().regex(/^[A-Z]$/, 'the answer is not an option letter'),
  sim_level_std: z.number(),
});

/**
 * The difficulty split published with MedDDx (KGARevion): the spread of the
 * options' similarity to each other; the closer the options, the harder.
 */
export function medddxLevel(simLevelStd: number): 'Basic' | 'Intermediate' | 'Expert' {
  return simLevelStd > 0.04 ? 'Basic' : simLevelStd < 0.02 ? 'Expert' : 'Intermediate';
}

/** "question\nA: x\nB: y\n" → the question and its options; null when the options are not A, B, … in order. */
export function splitQuery(query: string): { question: string; options: Record<string, string> } | null {
  const lines = query.replace(/\s+$/, '').split('\n');
  const first = lines.findIndex((l) => /^A: /.test(l));
  if (first < 1) return null;
  const options: Record<string, string> = {};
  for (const [i, line] of lines.slice(first).entries()) {
    const m = /^([A-Z]): (.*)$/.exec(line);
    if (!m || m[1] !== String.fromCharCode(65 + i) || !m[2].trim()) return null;
    options[m[1]] = m[2].trim();
  }
  const question = lines.slice(0, first).join('\n').trim();
  return question && Object.keys(options).length >= 2 ? { question, options } : null;
}

/**
 * MedDDx (`[{query, answer, sim_level_std}]`, the question and its options in
 * `query`) as MCQs, family Basic / Intermediate / Expert. Items are named by
 * their 0-based index in the array ("#12").
 */
export function parseMedddx(file: string): ParsedSet {
  const root = readJsonFile(file);
  if (!Array.isArray(root)) return { questions: [], issues: [{ file, reason: 'not MedDDx: expected a JSON array of {query, answer, sim_level_std}' }] };
  const parsed: ParsedSet = { questions: [], issues: [] };
  root.forEach((raw, index) => {
    const at = `#${index}`;
    const item = Item.safeParse(raw);
    if (!item.success) return void parsed.issues.push({ file, at, reason: zodReason(item.error) });
    const split = splitQuery(item.data.query);
    if (!split) return void parsed.issues.push({ file, at, reason: 'query does not end in options "A: …", "B: …", … one per line' });
    if (!(item.data.answer in split.options)) return void parsed.issues.push({ file, at, reason: `answer ${item.data.answer} is not one of the options` });
    parsed.questions.push({
      text: split.question,
      options: split.options,
      answer: optionGold(split.options, item.data.answer),
      answerType: 'mcq',
      family: medddxLevel(item.data.sim_level_std),
      meta: { index, simLevelStd: item.data.sim_level_std },
    });
  });
  return parsed;
}
