import { asLinked } from '@/lib/llm/offline/linked';
import { optionsBlock, questionShown } from '@/lib/llm/templates/options-block';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../types';
import { onePerNode } from '@/lib/base/distinct';

/**
 * The question as every role sees it. The entity links (made through the
 * entity channel, so the `entity` switch decides how they are made) let the
 * offline engine read the question without touching the KG.
 */
export interface QuestionFrame {
  question: string;
  /** MCQ options keyed A–E. */
  options: Record<string, string> | null;
  entities: LinkedEntity[];
  optionLinks: Record<string, LinkedEntity[]>;
}

/** Links the question's mentions, and each option's, through the entity channel. */
export async function frameQuestion(ctx: MethodContext<unknown>, step: StepHandle): Promise<QuestionFrame> {
  const linked = await ctx.channels.entity.linkQuestion(step, ctx.question.text, ctx.question.options);
  const optionLinks = Object.fromEntries(Object.entries(linked.optionLinks).map(([key, links]) => [key, asLinked(links)]));
  return { question: ctx.question.text, options: ctx.question.options, entities: asLinked(linked.entities), optionLinks };
}

/** Distinct linked nodes of the question and its options. */
export function linkedNodes(frame: QuestionFrame): LinkedEntity[] {
  const all = [...frame.entities, ...Object.values(frame.optionLinks).flat()];
  return onePerNode(all);
}

export function entityList(entities: LinkedEntity[]): string {
  return entities.length ? entities.map((e) => `${e.name} (${e.kind})`).join('; ') : '(none linked)';
}

export function questionBlock(frame: QuestionFrame): string {
  const options = optionsBlock(frame.question, frame.options);
  return `Question: ${questionShown(frame.question, frame.options)}${options ? `\n\n${options}` : ''}\n\nEntities recognised in the question: ${entityList(frame.entities)}`;
}
