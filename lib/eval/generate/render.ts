import { GoldAnswerSchema, type GoldAnswer } from '@/lib/eval/scoring';
import type { AnswerType } from '@/lib/methods/types';
import { DISTRACTORS_PER_QUESTION, pickDistractors } from './distractors';
import type { Instance } from './instance';
import { aliasesOf } from '@/lib/eval/store/generation';
import { leaksAnswer } from './leak';
import type { Rng } from './random';
import type { Rendering } from './types';

const OPTION_KEYS = ['A', 'B', 'C', 'D', 'E'] as const;

export interface RenderedQuestion {
  text: string;
  template: string;
  options: Record<string, string> | null;
  answer: GoldAnswer;
  answerType: AnswerType;
  /** MCQ only: the distractors' node ids, so a reader can check them against the KG. */
  distractorIds?: string[];
}

/**
 * Writes one instance as an MCQ (the answer among four distractors, A–E), an
 * open question (the answer's name and aliases are gold) or a count question
 * (the number, with the counted nodes behind it). Null when the stem names an
 * answer or an MCQ cannot get enough distractors.
 */
export async function renderInstance(instance: Instance, rendering: Rendering, rng: Rng): Promise<RenderedQuestion | null> {
  const stem = instance.phrase(rng, rendering);
  const aliases = await aliasesOf(instance.answers);
  if (
    leaksAnswer(
      stem.text,
      instance.answers.flatMap((a) => [a.name, ...(aliases.get(a.id) ?? [])]),
    )
  )
    return null;

  if (rendering === 'count') {
    const answer = GoldAnswerSchema.parse({
      text: String(instance.answers.length),
      count: instance.answers.length,
      list: instance.answers.map((a) => a.name),
      nodeIds: instance.answers.map((a) => a.id),
    });
    return { ...stem, options: null, answer, answerType: 'count' };
  }

  const node = instance.answers[0];
  const gold = { text: node.name, aliases: aliases.get(node.id) ?? [], nodeIds: [node.id] };
  if (rendering === 'open') return { ...stem, options: null, answer: GoldAnswerSchema.parse(gold), answerType: 'open' };

  const distractors = await pickDistractors(instance, gold.aliases, rng.child('distractors'));
  if (distractors.length < DISTRACTORS_PER_QUESTION) return null;
  const choices = rng.shuffle([node, ...distractors]);
  const options = Object.fromEntries(choices.map((c, i) => [OPTION_KEYS[i], c.name]));
  const key = OPTION_KEYS[choices.indexOf(node)];
  return {
    ...stem,
    options,
    answer: GoldAnswerSchema.parse({ ...gold, key }),
    answerType: 'mcq',
    distractorIds: distractors.map((d) => d.id),
  };
}
