import { z } from 'zod';
import { Channel } from '@/lib/db/generated/enums';
import { EvidenceLineSchema, QuestionFrameSchema, SolutionSchema } from './common';

/** The baselines (direct, cot, kg-rag; lib/methods/baselines): context blocks, the ranked KG neighbourhood, the one answer. */

const ContextSchema = z.object({
  frame: QuestionFrameSchema,
  blocks: z.array(z.object({ channel: z.enum(Channel), title: z.string(), lines: z.array(EvidenceLineSchema) })),
  notes: z.array(z.string()),
});

const CotSolutionSchema = SolutionSchema.extend({ reasoning: z.string() });

export const baselineSteps = {
  'direct.context': { output: ContextSchema },
  'direct.answer': { output: SolutionSchema },
  'cot.context': { output: ContextSchema },
  'cot.answer': { output: CotSolutionSchema },
  'kg-rag.context': { output: ContextSchema },
  'kg-rag.answer': { output: SolutionSchema },
  'kg-rag.neighbourhood': {
    output: z.object({
      lines: z.array(EvidenceLineSchema),
      title: z.string(),
      answerSet: z.array(EvidenceLineSchema),
      ranking: z.array(
        z.object({
          id: z.string(),
          text: z.string(),
          lexical: z.number(),
          shared: z.number(),
          asked: z.number().optional(),
          score: z.number(),
          rank: z.number().int(),
          selected: z.boolean(),
        }),
      ),
      notes: z.array(z.string()),
    }),
  },
} as const;
