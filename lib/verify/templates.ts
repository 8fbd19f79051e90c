import { z } from 'zod';
import { defineTemplate } from '@/lib/llm/templates';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { AnswerType } from '@/lib/methods/types';
import type { RunReasoning } from './reasoning';

/** K2V's two roles (k2v.txt, Tables 9 and 10): checklist synthesis S(x, y, G) and the judge J(z, c_i). */

export interface GoldView {
  text: string;
  key: string | null;
  count: number | null;
}

export interface ChecklistInput {
  question: string;
  options: Record<string, string> | null;
  answerType: AnswerType;
  gold: GoldView | null;
  general: string[];
  /** Entity links of the question and options, so the offline engine can read it without the KG. */
  entities: LinkedEntity[];
  optionLinks: Record<string, LinkedEntity[]>;
}

function goldLine(gold: GoldView | null): string {
  if (!gold) return 'answer: (not known)';
  return `answer: ${gold.key ? `${gold.key}. ` : ''}${gold.text}${gold.count !== null ? ` (count ${gold.count})` : ''}`;
}

export const checklistTemplate = defineTemplate({
  role: 'checklist',
  id: 'k2v.checklist',
  version: 1,
  system:
    'You are a senior biomedical expert who writes and grades exam questions. Based on the general criteria, design a checklist of ' +
    "detailed, objectively scorable criteria for the specific question, to evaluate a solver's reasoning process. Each criterion is one " +
    'clear, specific statement of what an ideal step or thought should achieve, independently checkable with yes or no, closely tied to ' +
    'the knowledge and skills the question requires. Do not repeat the general criteria themselves.',
  render: (input: ChecklistInput) =>
    [
      `[Specific Question]\nquestion: ${input.question}${
        input.options
          ? `\noptions: ${Object.entries(input.options)
              .map(([k, v]) => `${k}. ${v}`)
              .join('; ')}`
          : ''
      }\n${goldLine(input.gold)}`,
      `[General Criteria]\n${input.general.map((g, i) => `${i + 1}. ${g}`).join('\n')}`,
    ].join('\n\n'),
  output: z.object({ criteria: z.array(z.string().min(1)).max(12) }),
});

function reasoningBlock(r: RunReasoning): string {
  const a = r.answer;
  return [
    `reasoning trace (the run's model calls in order):\n${r.trace.map((t, i) => `(${i + 1}) ${t.step}${t.role ? ` [${t.role}]` : ''}: ${t.text}`).join('\n') || '(no model-written steps)'}`,
    `answer: ${a.abstained ? '(abstained)' : `${a.optionKey ? `${a.optionKey}. ` : ''}${a.text}`}`,
    `rationale: ${r.rationale || '(none)'}`,
    `claims:\n${r.claims.map((c) => `- ${c.text} [${c.evidenceIds.join(', ')}]`).join('\n') || '(none)'}`,
    `evidence used:\n${r.evidence.map((e) => `[${e.id}] ${e.text}`).join('\n') || '(none)'}`,
  ].join('\n');
}

export const judgeTemplate = defineTemplate({
  role: 'judge',
  id: 'k2v.judge',
  version: 2,
  system:
    "You are an impartial and meticulous examiner. Evaluate a solver's reasoning process for a question against one specific criterion. " +
    'Your judgment must be strict, objective and based solely on the information provided: answer yes only if the reasoning clearly meets the criterion.',
  render: (input: { question: string; gold: GoldView | null; criterion: { text: string; check: string | null }; reasoning: RunReasoning }) =>
    `[Question-Answer Pair]\nquestion: ${input.question}\n${goldLine(input.gold)}\n\n[Criterion]\n${input.criterion.text}\n\n[Reasoning Process]\n${reasoningBlock(input.reasoning)}`,
  output: z.object({ verdict: z.enum(['yes', 'no']), reason: z.string() }),
});
