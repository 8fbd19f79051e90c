import { z } from 'zod';
import { ANSWER_TEXT, excludedField, optionKeyField } from '@/lib/llm/templates/answer-fields';
import { defineTemplate } from '@/lib/llm/templates';
import { AID_MARK } from '@/lib/channels/aid-names';
import type { ChannelName } from '@/lib/trace/types';
import { linesBlock, type EvidenceLine } from './evidence';
import { questionBlock, type QuestionFrame } from './frame';

/**
 * The baselines' single answer call (METHODS.md §1): the question plus the
 * context blocks of the enabled channels; `cot` asks for step-by-step
 * reasoning before the answer; `kg-rag` adds the ranked 1-hop KG neighbourhood.
 */

export const SolutionSchema = z.object({
  answer: z.string().describe(ANSWER_TEXT),
  optionKey: optionKeyField(),
  items: z.array(z.string()).describe('For list answers: one name per item'),
  excluded: excludedField(),
  count: z.number().int().nullable().describe('For counting questions: the number'),
  abstain: z.boolean(),
  rationale: z.string().describe('Why this answer, citing evidence ids'),
  claims: z
    .array(z.object({ text: z.string(), evidenceIds: z.array(z.string()) }))
    .describe('Each claim the answer rests on, with the ids of the evidence lines that state it (none for background knowledge)'),
});
export type Solution = z.infer<typeof SolutionSchema>;

export const CotSolutionSchema = z.object({
  reasoning: z.string().describe('Step-by-step reasoning, written before the answer'),
  ...SolutionSchema.shape,
});
export type CotSolution = z.infer<typeof CotSolutionSchema>;

/** The heading of a list or count question's complete answer set (aid `answer-set`). */
export const ANSWER_SET_TITLE = `${AID_MARK}: complete answer set from the knowledge graph, for the question as Hopscope's reader reads it (one unit: every node meeting all the question's relations as read)`;

/** The heading of the options' direct edges to the question's anchors (aid `option-tests`). */
export const OPTION_TESTS_TITLE = `${AID_MARK}: each option tested for direct knowledge graph edges to the question's entities`;

/** The heading of the edges joining the question's entities pairwise (kg-rag's retrieval). */
export const PAIR_EDGES_TITLE = "Knowledge graph edges between the question's entities (each pair's own edges, read whole)";

/** Evidence of one channel, shown under its own heading. */
export interface ContextBlock {
  channel: ChannelName;
  title: string;
  lines: EvidenceLine[];
}

export interface AnswerInput {
  frame: QuestionFrame;
  blocks: ContextBlock[];
  /** The `param` switch: may the model add background knowledge of its own? */
  background: boolean;
}

function render(input: AnswerInput): string {
  const blocks = input.blocks.length ? input.blocks.map((b) => `${b.title}:\n${linesBlock(b.lines)}`).join('\n\n') : 'Context: (none)';
  const knowledge = input.background
    ? 'You may use background knowledge: a claim taken from the unverified memory above cites its P id; one from your own knowledge cites no id.'
    : 'Do not use background knowledge: answer only from the context above, and abstain when it does not support an answer.';
  return `${questionBlock(input.frame)}\n\n${blocks}\n\n${knowledge}`;
}

const CITE = 'Cite the ids of the context lines each claim rests on; never cite an id that is not listed.';

export const directTemplate = defineTemplate({
  role: 'answer',
  id: 'direct.answer',
  version: 2,
  system: `You answer a biomedical question in one step from the question and the context given. ${CITE}`,
  render,
  output: SolutionSchema,
});

export const cotTemplate = defineTemplate({
  role: 'answer',
  id: 'cot.answer',
  version: 2,
  system: `You answer a biomedical question. First reason step by step (what is asked, which entities and relations matter, what the context says), then give the answer. ${CITE}`,
  render,
  output: CotSolutionSchema,
});

export const kgRagTemplate = defineTemplate({
  role: 'answer',
  id: 'kg-rag.answer',
  version: 2,
  system: `You answer a biomedical question from knowledge-graph facts about the entities it names, plus any other context given. ${CITE}`,
  render,
  output: SolutionSchema,
});
