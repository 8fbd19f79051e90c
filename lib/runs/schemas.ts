import { z } from 'zod';
import { KgShuffleSchema, SwitchesSchema } from '@/lib/channels/switches';
import { METHOD_IDS } from '@/lib/methods/types';

/** The longest question a run accepts; longer ones are refused with a message, never cut. */
export const QUESTION_MAX_CHARS = 4000;

export const OPTION_KEYS = ['A', 'B', 'C', 'D', 'E'] as const;

export const AttachedDocumentSchema = z.object({
  title: z.string().trim().max(500).optional(),
  text: z.string().trim().min(1, 'a document needs text').max(200_000, 'a document may hold at most 200,000 characters'),
});

/** A link shown to readers: http(s) only (a `javascript:` or `data:` URL is refused). */
export const HttpUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((u) => /^https?:$/i.test(new URL(u).protocol), 'only http(s) URLs are accepted');

/** A recorded web result: what the web channel serves offline, in place of a live search. */
export const WebRecordSchema = z.object({
  id: z.string().trim().min(1).max(200),
  url: HttpUrlSchema.optional(),
  title: z.string().trim().min(1).max(500),
  snippet: z.string().trim().min(1).max(5000),
});

/** The body of POST /api/runs, the server action and the CLI: validated once, here. */
export const RunRequestSchema = z
  .object({
    question: z
      .string()
      .trim()
      .min(3, 'the question is too short')
      .max(QUESTION_MAX_CHARS, `the question may hold at most ${QUESTION_MAX_CHARS.toLocaleString('en-US')} characters: shorten it (nothing is cut)`)
      .optional(),
    questionId: z.string().min(1).optional(),
    options: z
      .partialRecord(z.enum(OPTION_KEYS), z.string().trim().min(1).max(1000))
      .refine((o) => Object.keys(o).length >= 2, 'an MCQ needs at least two options')
      .optional(),
    documents: z.array(AttachedDocumentSchema).max(10, 'at most 10 documents').optional(),
    webBundle: z.array(WebRecordSchema).max(50, 'a web bundle holds at most 50 records').optional(),
    method: z.enum(METHOD_IDS, { message: `method must be one of ${METHOD_IDS.join(', ')}` }),
    switches: SwitchesSchema.optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    kgShuffle: z.union([z.boolean(), KgShuffleSchema]).optional(),
    backend: z.enum(['auto', 'offline', 'openai']).default('auto'),
  })
  .strict()
  .refine((r) => !!r.question !== !!r.questionId, { message: 'give exactly one of question or questionId', path: ['question'] });

export type RunRequest = z.input<typeof RunRequestSchema>;
type ParsedRunRequest = z.output<typeof RunRequestSchema>;

/** A rerun: the parent's question and config with these changes. */
export const RerunRequestSchema = z
  .object({
    switches: SwitchesSchema.optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    kgShuffle: z.union([z.boolean(), KgShuffleSchema]).optional(),
    method: z.enum(METHOD_IDS).optional(),
  })
  .strict();
type RerunRequest = z.input<typeof RerunRequestSchema>;

/** The model endpoint a run or job was started with (lib/runs/backend.ts); never credentials. */
export const BackendDescriptionSchema = z.object({
  backend: z.enum(['offline', 'openai']),
  model: z.string(),
  baseUrl: z.string().optional(),
  embeddingModel: z.string().optional(),
});

/** What a run stores as its config: enough to reproduce and to diff. */
export const RunConfigSchema = z.object({
  method: z.enum(METHOD_IDS),
  // Runs stored before the aids switch ran without aids.
  switches: z.object({ doc: z.boolean(), entity: z.boolean(), kg: z.boolean(), param: z.boolean(), web: z.boolean(), aids: z.boolean().default(false) }),
  params: z.record(z.string(), z.unknown()),
  kgShuffle: KgShuffleSchema.nullable(),
  backend: BackendDescriptionSchema,
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

/** MCQ options keyed A–E, as `questions.options` and a run's input store them. */
export const QuestionOptionsSchema = z.record(z.string(), z.string()).nullable();

export const RunInputSchema = z.object({
  question: z.string(),
  options: QuestionOptionsSchema,
  answerType: z.enum(['mcq', 'open', 'count', 'list', 'yesno']),
  documentIds: z.array(z.string()),
  gold: z.unknown().nullable(),
  webBundle: z.array(WebRecordSchema).default([]),
  /** The question's document bundle (passage ids) under its source condition; null: the whole corpus. */
  docBundle: z.array(z.string()).nullable().default(null),
});
export type RunInput = z.infer<typeof RunInputSchema>;
