import { z } from 'zod';
import { RunStatus } from '@/lib/db/generated/enums';
import { METHOD_IDS } from '@/lib/methods/types';
import { BackendDescriptionSchema } from '@/lib/runs/schemas';
import { GridConfigSchema } from './grid';

/** "xr2,regram" or ["xr2", "regram"]. */
const commaList = <T extends z.ZodType>(list: T) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    list,
  );

/** The body of POST /api/eval, the start form and the CLI: validated once, here. */
export const EvalJobRequestSchema = z
  .object({
    /** A question set by id or name. */
    set: z.string().trim().min(1, 'choose a question set'),
    methods: commaList(
      z
        .array(z.enum(METHOD_IDS, { message: `methods are among ${METHOD_IDS.join(', ')}` }))
        .min(1, 'choose at least one method')
        .transform((ids) => [...new Set(ids)]),
    ),
    /** The switch grid (see grid.ts): "full,kg=0,entity=0,param=0" or a list of configuration specs. */
    switches: z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1)]).default('full'),
    /** A seeded sample of this many questions (all of them when absent). */
    limit: z.coerce.number().int().min(1).max(100_000).optional(),
    seed: z.coerce.string().trim().min(1).max(100).default('1'),
    /** Runs of this job in flight at once. */
    concurrency: z.coerce.number().int().min(1).max(64).default(4),
    backend: z.enum(['auto', 'offline', 'openai']).default('auto'),
    /** Per-method run parameters, e.g. {"eigen1": {"k": 1}}; each is checked against the method's schema. */
    params: z.partialRecord(z.enum(METHOD_IDS), z.record(z.string(), z.unknown())).default({}),
    name: z.string().trim().max(200).optional(),
  })
  .strict();
type EvalJobRequest = z.input<typeof EvalJobRequestSchema>;

/** What a job stores in its `params` column: how its runs are made. */
export const JobSettingsSchema = z.object({
  backend: BackendDescriptionSchema,
  concurrency: z.number().int(),
  methodParams: z.record(z.string(), z.record(z.string(), z.unknown())),
  /** The reproduction table (lib/reproduce) this job fills in, if any. */
  reproduce: z.string().optional(),
});
export type JobSettings = z.infer<typeof JobSettingsSchema>;

export const JobGridSchema = z.array(GridConfigSchema);

/** The job's `sample` column: how its questions were drawn from the set. */
export const JobSampleSchema = z.object({ limit: z.number().int().nullable(), seed: z.string(), setTotal: z.number().int() });
export type JobSample = z.infer<typeof JobSampleSchema>;

/** The run statuses that end a run (and its item). */
export const ITEM_OUTCOMES = [RunStatus.succeeded, RunStatus.failed, RunStatus.cancelled] as const;

/** What an item keeps of its finished run (`eval_items.scores`): enough for every table without reading the trace again. */
export const ItemOutcomeSchema = z.object({
  status: z.enum(ITEM_OUTCOMES),
  correct: z.boolean().nullable(),
  abstained: z.boolean(),
  /** Share of answer claims linked to evidence; null when the answer made no claims. */
  grounding: z.number().nullable(),
  /** Trace steps executed (skipped ones not counted). */
  steps: z.number().int(),
  /** Loop iterations the method reports (X-R2's "average steps"); null for one-pass methods. */
  iterations: z.number().nullable(),
  calls: z.number().int(),
  tokensIn: z.number().int(),
  tokensOut: z.number().int(),
  /** The tokens are estimates (the backend reported none: the offline engine). */
  tokensEstimated: z.boolean().optional(),
  wallMs: z.number().int(),
  answer: z.string().nullable(),
  error: z.string().nullable(),
});
export type ItemOutcome = z.infer<typeof ItemOutcomeSchema>;

/** An item as the tables score it. */
export interface ScoredItem {
  questionId: string;
  method: string;
  configKey: string;
  family: string | null;
  answerType: string;
  /** The run's id, or its share id behind a share link. */
  runId: string | null;
  /** Null while the item has not finished. */
  outcome: ItemOutcome | null;
}
