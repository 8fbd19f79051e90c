import { z } from 'zod';
import { defineTemplate } from './registry';

/**
 * Role templates shared by several methods (baselines, EIGEN-1, K2V). Method-
 * specific templates live next to their methods.
 */

export interface EvidenceLine {
  id: string;
  text: string;
}

/** Evidence is shown with its id so the model can cite it and answers link back to evidence records. */
function evidenceBlock(evidence: EvidenceLine[]): string {
  return evidence.length ? evidence.map((e) => `[${e.id}] ${e.text}`).join('\n') : '(none)';
}

function optionsBlock(options: string[]): string {
  return options.map((option, i) => `${String.fromCharCode(65 + i)}. ${option}`).join('\n');
}

export const judgeTemplate = defineTemplate({
  role: 'judge',
  id: 'generic.judge',
  version: 1,
  system: 'You check one criterion against a piece of reasoning. Answer yes only if the reasoning clearly satisfies the criterion.',
  render: (input: { question: string; criterion: string; reasoning: string }) =>
    `Question: ${input.question}\n\nReasoning to check:\n${input.reasoning}\n\nCriterion: ${input.criterion}`,
  output: z.object({ verdict: z.enum(['yes', 'no']), reason: z.string() }),
});

export const monitorTemplate = defineTemplate({
  role: 'monitor',
  id: 'generic.monitor',
  version: 1,
  system:
    'You watch a reasoning process. Decide whether the latest passage relies on a fact the reasoner seems unsure of, ' +
    'gets wrong, or lacks, such that looking it up in a knowledge graph or the literature would help.',
  render: (input: { question: string; window: string }) =>
    `Question being solved: ${input.question}\n\nLatest passage of the reasoning:\n"""\n${input.window}\n"""\n\nDoes this passage need retrieval?`,
  output: z.object({ needsRetrieval: z.boolean(), reason: z.string() }),
});

export const recallTemplate = defineTemplate({
  role: 'recall',
  id: 'generic.recall',
  version: 2,
  system:
    'You state background biomedical facts you know that bear on a question, each with your confidence between 0 and 1. ' +
    'Do not answer the question; list facts only. State nothing you are not reasonably sure of.',
  render: (input: { question: string; entities: string[]; relations?: string[] }) =>
    `Question: ${input.question}\n\nEntities mentioned: ${input.entities.length ? input.entities.join('; ') : '(none linked)'}` +
    (input.relations?.length ? `\n\nRelations asked about: ${input.relations.join('; ')}` : ''),
  output: z.object({
    claims: z.array(z.object({ statement: z.string(), confidence: z.number().min(0).max(1) })),
  }),
});

export const generateTemplate = defineTemplate({
  role: 'generate',
  id: 'generic.generate',
  version: 2,
  system: 'You are a careful biomedical reasoner. Think step by step in plain prose, then finish with a line "Answer: <answer>".',
  render: (input: { question: string; options?: string[]; evidence?: EvidenceLine[] }) =>
    [
      `Question: ${input.question}`,
      input.options?.length ? `Options:\n${optionsBlock(input.options)}` : null,
      input.evidence ? `Evidence:\n${evidenceBlock(input.evidence)}` : null,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: null,
});
