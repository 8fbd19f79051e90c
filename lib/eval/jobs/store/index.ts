import { z } from 'zod';
import { getPool, getPrisma } from '@/lib/db/client';
import { RunStatus } from '@/lib/db/generated/enums';
import { queryRow, queryRows } from '@/lib/db/rows';
import { NotFoundError } from '@/lib/base/errors';
import { toJson } from '@/lib/base/json';
import type { GridConfig } from '../grid';
import {
  ITEM_OUTCOMES,
  ItemOutcomeSchema,
  JobGridSchema,
  JobSampleSchema,
  JobSettingsSchema,
  type ItemOutcome,
  type JobSample,
  type JobSettings,
  type ScoredItem,
} from '../schemas';

/**
 * The evaluation jobs' store: every read and write of `eval_jobs` and `eval_items`
 * (and of the job's runs where a job decides their fate). JSON columns come back
 * parsed through their schemas.
 */

export type JobWhere = { id: string } | { shareId: string };

const IdRow = z.object({ id: z.string() });
const StatusRow = z.object({ status: z.enum(RunStatus) });

/** A job with its JSON columns parsed through their schemas. */
export interface LoadedJob {
  id: string;
  shareId: string;
  name: string | null;
  setId: string;
  status: RunStatus;
  methods: string[];
  grid: GridConfig[];
  settings: JobSettings;
  sample: JobSample | null;
  total: number;
  done: number;
  errors: number;
  summary: unknown;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  ownerId: string | null;
}

export async function loadJob(where: JobWhere): Promise<LoadedJob> {
  const prisma = await getPrisma();
  const job = await prisma.evalJob.findUnique({ where });
  if (!job) throw new NotFoundError('id' in where ? `No evaluation with id ${where.id}` : 'No evaluation behind this link');
  return {
    ...job,
    grid: JobGridSchema.parse(job.grid),
    settings: JobSettingsSchema.parse(job.params),
    sample: job.sample ? JobSampleSchema.parse(job.sample) : null,
  };
}

/** Jobs that still have work, oldest first. */
export async function unfinishedJobIds(): Promise<string[]> {
  const prisma = await getPrisma();
  const jobs = await prisma.evalJob.findMany({ where: { status: { in: ['queued', 'running'] } }, orderBy: { createdAt: 'asc' }, select: { id: true } });
  return jobs.map((j) => j.id);
}

/** Jobs in the list, newest first, with their sets' names. */
export async function listJobs(where: { OR?: ({ ownerId: string } | { ownerId: null })[] } | undefined, limit: number) {
  const prisma = await getPrisma();
  const jobs = await prisma.evalJob.findMany({ where, orderBy: { createdAt: 'desc' }, take: limit });
  const sets = await prisma.questionSet.findMany({ where: { id: { in: [...new Set(jobs.map((j) => j.setId))] } }, select: { id: true, name: true } });
  const setName = new Map(sets.map((s) => [s.id, s.name]));
  return jobs.map((j) => ({ ...j, grid: JobGridSchema.safeParse(j.grid).data ?? [], setName: setName.get(j.setId) ?? null }));
}

export async function jobSet(setId: string) {
  const prisma = await getPrisma();
  return prisma.questionSet.findUnique({ where: { id: setId }, select: { id: true, name: true, source: true, license: true } });
}

export interface ItemCounts {
  total: number;
  pending: number;
  inFlight: number;
  done: number;
  errors: number;
}

const ItemCountsSchema = z.object({ total: z.number(), pending: z.number(), inFlight: z.number(), done: z.number(), errors: z.number() });

export async function countItems(jobId: string): Promise<ItemCounts> {
  const counts = await queryRow(
    getPool(),
    ItemCountsSchema,
    `select count(*)::int total,
            count(*) filter (where run_id is null and scores is null)::int pending,
            count(*) filter (where run_id is not null and scores is null)::int "inFlight",
            count(*) filter (where scores is not null)::int done,
            count(*) filter (where scores is not null and scores->>'status' <> 'succeeded')::int errors
       from eval_items where job_id = $1`,
    [jobId],
  );
  return counts!;
}

export async function jobStatus(jobId: string): Promise<string> {
  const prisma = await getPrisma();
  return (await prisma.evalJob.findUnique({ where: { id: jobId }, select: { status: true } }))?.status ?? 'cancelled';
}

/** Writes the counters the job list shows; returns the job's status. */
export async function storeProgress(jobId: string, counts: Pick<ItemCounts, 'done' | 'errors' | 'total'>): Promise<string> {
  const row = await queryRow(
    getPool(),
    StatusRow,
    `update eval_jobs set done = $2, errors = $3, total = $4, updated_at = now() where id = $1 returning status`,
    [jobId, counts.done, counts.errors, counts.total],
  );
  return row?.status ?? 'cancelled';
}

export async function markJobRunning(jobId: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.evalJob.updateMany({ where: { id: jobId, status: 'queued' }, data: { status: 'running' } });
}

export async function markJobFinished(jobId: string, status: 'succeeded' | 'failed'): Promise<void> {
  const prisma = await getPrisma();
  await prisma.evalJob.updateMany({ where: { id: jobId, status: 'running' }, data: { status, finishedAt: new Date() } });
}

/** Cancels an unfinished job and its runs in flight; null when there is no such job, else the job's status afterwards. */
export async function cancelJob(jobId: string): Promise<string | null> {
  const pool = getPool();
  const row = await queryRow(
    pool,
    StatusRow,
    `update eval_jobs set status = case when status in ('queued', 'running') then 'cancelled'::"RunStatus" else status end,
            finished_at = case when status in ('queued', 'running') then now() else finished_at end, updated_at = now()
      where id = $1 returning status`,
    [jobId],
  );
  if (!row) return null;
  if (row.status !== 'cancelled') return row.status;
  await pool.query(
    `update runs set status = 'cancelled', finished_at = now(), error = 'cancelled with its evaluation', updated_at = now()
      where eval_job_id = $1 and status in ('queued', 'running')`,
    [jobId],
  );
  return row.status;
}

export async function storeCounts(jobId: string, counts: Pick<ItemCounts, 'done' | 'errors'>): Promise<void> {
  await getPool().query(`update eval_jobs set done = $2, errors = $3 where id = $1`, [jobId, counts.done, counts.errors]);
}

/** Freezes the tables on the job when it finishes. */
export async function storeSummary(jobId: string, summary: unknown): Promise<void> {
  const prisma = await getPrisma();
  await prisma.evalJob.update({ where: { id: jobId }, data: { summary: toJson(summary) } });
}

const PendingItemSchema = z.object({ id: z.string(), questionId: z.string(), method: z.string(), configKey: z.string() });
export type PendingItem = z.output<typeof PendingItemSchema>;

/** The next items in question order, then method and configuration order, so a question's row of the matrix fills together. */
export async function nextPendingItems(job: Pick<LoadedJob, 'id' | 'methods' | 'grid'>, limit: number): Promise<PendingItem[]> {
  return queryRows(
    getPool(),
    PendingItemSchema,
    `select i.id, i.question_id "questionId", i.method, i.config_key "configKey"
       from eval_items i join questions q on q.id = i.question_id
      where i.job_id = $1 and i.run_id is null and i.scores is null
      order by q.ordinal, array_position($2::text[], i.method), array_position($3::text[], i.config_key)
      limit $4`,
    [job.id, job.methods, job.grid.map((g) => g.key), limit],
  );
}

export async function linkItemRun(itemId: string, runId: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.evalItem.update({ where: { id: itemId }, data: { runId } });
}

export async function storeItemOutcome(itemId: string, outcome: ItemOutcome): Promise<void> {
  const prisma = await getPrisma();
  await prisma.evalItem.update({ where: { id: itemId }, data: { correct: outcome.correct, scores: toJson(outcome) } });
}

/** One statement for many items; an item that has an outcome already keeps it. */
export async function storeItemOutcomes(outcomes: { id: string; outcome: ItemOutcome }[]): Promise<void> {
  await getPool().query(
    `update eval_items i set correct = x.correct, scores = x.scores
       from jsonb_to_recordset($1::jsonb) as x(id text, correct boolean, scores jsonb)
      where i.id = x.id and i.scores is null`,
    [JSON.stringify(outcomes.map(({ id, outcome }) => ({ id, correct: outcome.correct, scores: toJson(outcome) })))],
  );
}

const FinishedRunSchema = z.object({
  status: z.enum(ITEM_OUTCOMES),
  correct: z.boolean().nullable(),
  answer: z.unknown(),
  scores: z.unknown(),
  cost: z.unknown(),
  error: z.string().nullable(),
  steps: z.number(),
});
/** The stored columns of a finished run that an item keeps. */
export type FinishedRun = z.output<typeof FinishedRunSchema>;
const FinishedItemRunSchema = FinishedRunSchema.extend({ itemId: z.string(), runId: z.string(), hasGold: z.boolean() });

/** Runs of the job that finished since their items were last looked at. */
export async function newlyFinishedRuns(jobId: string): Promise<(FinishedRun & { itemId: string; runId: string; hasGold: boolean })[]> {
  return queryRows(
    getPool(),
    FinishedItemRunSchema,
    `select i.id "itemId", r.id "runId", r.status, r.correct, r.answer, r.scores, r.cost, r.error, q.answer is not null "hasGold",
            (select count(*)::int from steps s where s.run_id = r.id and s.status <> 'skipped') steps
       from eval_items i
       join runs r on r.id = i.run_id
       join questions q on q.id = i.question_id
      where i.job_id = $1 and i.scores is null and r.status in ('succeeded', 'failed', 'cancelled')`,
    [jobId],
  );
}

/** Finish times (ms) of the job's most recently finished items, newest first. */
export async function recentFinishTimes(jobId: string, limit: number): Promise<number[]> {
  const rows = await queryRows(
    getPool(),
    z.object({ finished: z.date() }),
    `select r.finished_at finished from eval_items i join runs r on r.id = i.run_id
      where i.job_id = $1 and i.scores is not null and r.finished_at is not null
      order by r.finished_at desc limit ${Number(limit)}`,
    [jobId],
  );
  return rows.map((r) => r.finished.getTime());
}

/** Behind a share link every run is named by its share id (its link is /r/{shareId}), never by its private id. */
const runRefSql = (shared: boolean) => (shared ? '(select r.share_id from runs r where r.id = i.run_id)' : 'i.run_id');
const ItemRow = z.object({
  questionId: z.string(),
  method: z.string(),
  configKey: z.string(),
  family: z.string().nullable(),
  answerType: z.string(),
  runId: z.string().nullable(),
  scores: z.unknown(),
});
const withOutcome = <T extends { scores: unknown }>({ scores, ...row }: T) => ({ ...row, outcome: scores ? ItemOutcomeSchema.parse(scores) : null });

/** Every item of a job with its question's family and answer type, in question order. */
export async function jobItems(jobId: string): Promise<(ScoredItem & { ordinal: number })[]> {
  const rows = await queryRows(
    getPool(),
    ItemRow.extend({ ordinal: z.number() }),
    `select i.question_id "questionId", q.ordinal, i.method, i.config_key "configKey", q.family, q.answer_type "answerType", i.run_id "runId", i.scores
       from eval_items i join questions q on q.id = i.question_id
      where i.job_id = $1
      order by q.ordinal`,
    [jobId],
  );
  return rows.map(withOutcome);
}

/** The items of some questions of a job. */
export async function itemsOfQuestions(jobId: string, questionIds: string[], shared: boolean): Promise<ScoredItem[]> {
  const rows = await queryRows(
    getPool(),
    ItemRow,
    `select i.question_id "questionId", i.method, i.config_key "configKey", q.family, q.answer_type "answerType", ${runRefSql(shared)} "runId", i.scores
       from eval_items i join questions q on q.id = i.question_id
      where i.job_id = $1 and i.question_id = any($2::text[])`,
    [jobId, questionIds],
  );
  return rows.map(withOutcome);
}

const JobQuestionSchema = z.object({ questionId: z.string(), ordinal: z.number(), text: z.string(), family: z.string().nullable(), answerType: z.string() });
export type JobQuestion = z.output<typeof JobQuestionSchema>;

/** A page of the job's questions in order (text cut to 300 characters), and how many it has. */
export async function jobQuestionsPage(jobId: string, offset: number, limit: number): Promise<{ questions: JobQuestion[]; total: number }> {
  const pool = getPool();
  const [questions, count] = await Promise.all([
    queryRows(
      pool,
      JobQuestionSchema,
      `select q.id "questionId", q.ordinal, left(q.text, 300) text, q.family, q.answer_type "answerType"
         from questions q where q.id in (select question_id from eval_items where job_id = $1)
        order by q.ordinal offset $2 limit $3`,
      [jobId, offset, limit],
    ),
    queryRow(pool, z.object({ n: z.number() }), `select count(distinct question_id)::int n from eval_items where job_id = $1`, [jobId]),
  ]);
  return { questions, total: count!.n };
}

/** One question of the job with its options and gold answer; null when the job does not hold it. */
export async function jobQuestion(jobId: string, questionId: string): Promise<(JobQuestion & { options: unknown; gold: unknown }) | null> {
  return queryRow(
    getPool(),
    JobQuestionSchema.extend({ options: z.unknown(), gold: z.unknown() }),
    `select q.id "questionId", q.ordinal, q.text, q.family, q.answer_type "answerType", q.options, q.answer gold
       from questions q where q.id = $1 and exists (select 1 from eval_items where job_id = $2 and question_id = q.id)`,
    [questionId, jobId],
  );
}

/** One run of the evaluation as the exports list it. */
export interface ExportedItem {
  ordinal: number;
  questionId: string;
  question: string;
  family: string | null;
  answerType: string;
  gold: string | null;
  method: string;
  config: string;
  runId: string | null;
  outcome: ItemOutcome | null;
}

const ExportedItemRow = z.object({
  ordinal: z.number(),
  questionId: z.string(),
  question: z.string(),
  family: z.string().nullable(),
  answerType: z.string(),
  gold: z.string().nullable(),
  method: z.string(),
  config: z.string(),
  runId: z.string().nullable(),
  scores: z.unknown(),
});

export async function exportedItems(job: Pick<LoadedJob, 'id' | 'methods' | 'grid'>, shared: boolean): Promise<ExportedItem[]> {
  const rows = await queryRows(
    getPool(),
    ExportedItemRow,
    `select q.ordinal, q.id "questionId", q.text question, q.family, q.answer_type "answerType",
            coalesce(q.answer->>'text', q.answer->>'count') gold,
            i.method, i.config_key config, ${runRefSql(shared)} "runId", i.scores
       from eval_items i join questions q on q.id = i.question_id
      where i.job_id = $1
      order by q.ordinal, array_position($2::text[], i.method), array_position($3::text[], i.config_key)`,
    [job.id, job.methods, job.grid.map((g) => g.key)],
  );
  return rows.map(withOutcome);
}

/**
 * On taking over a job: runs that were created but never started may have no
 * queue message (their driver stopped in between), so they are deleted and
 * their items sent again. Started runs are left to finish or resume.
 */
export async function releaseUnstartedRuns(jobId: string): Promise<void> {
  await getPool().query(
    `with gone as (delete from runs where eval_job_id = $1 and status = 'queued' and attempts = 0 returning id)
     update eval_items set run_id = null where job_id = $1 and run_id in (select id from gone)`,
    [jobId],
  );
}

/**
 * Runs of the job left running with no heartbeat for `staleMs` are claimed back
 * (set queued); the conditional update makes one claimant win, never two.
 */
export async function reclaimStaleRuns(jobId: string, executing: string[], staleMs: number): Promise<string[]> {
  const rows = await queryRows(
    getPool(),
    IdRow,
    `update runs set status = 'queued', updated_at = now()
      where eval_job_id = $1 and status = 'running' and updated_at < now() - make_interval(secs => $2) and not (id = any($3::text[]))
      returning id`,
    [jobId, staleMs / 1000, executing],
  );
  return rows.map((r) => r.id);
}

/**
 * Runs of the job queued again after they started, and untouched for `staleMs`,
 * are cancelled (keeping their partial trace) and their items sent again.
 */
export async function supersedeStrandedRuns(jobId: string, executing: string[], staleMs: number): Promise<void> {
  await getPool().query(
    `with stranded as (
       update runs set status = 'cancelled', finished_at = now(), updated_at = now(),
                       error = 'superseded: queued with no worker to take it; the evaluation sent its item again'
        where eval_job_id = $1 and status = 'queued' and attempts > 0 and updated_at < now() - make_interval(secs => $2)
          and not (id = any($3::text[]))
        returning id)
     update eval_items set run_id = null where job_id = $1 and scores is null and run_id in (select id from stranded)`,
    [jobId, staleMs / 1000, executing],
  );
}

/** Finished runs of the job that no verification has read yet. */
export async function unverifiedFinishedRuns(jobId: string): Promise<string[]> {
  const rows = await queryRows(
    getPool(),
    IdRow,
    `select r.id from eval_items i join runs r on r.id = i.run_id
      where i.job_id = $1 and r.status in ('succeeded', 'failed') and not exists (select 1 from verifications v where v.run_id = r.id)`,
    [jobId],
  );
  return rows.map((r) => r.id);
}

/** The jobs that reproduce a table, newest first; with an owner, that owner's and those without one (see lib/auth/access). */
export async function reproductionJobs(tableId: string | null, ownerId: string | null) {
  return queryRows(
    getPool(),
    z.object({ id: z.string(), table: z.string(), status: z.enum(RunStatus), set: z.string(), done: z.number(), total: z.number(), createdAt: z.date() }),
    `select j.id, j.params->>'reproduce' "table", j.status, s.name "set", j.done, j.total, j.created_at "createdAt"
       from eval_jobs j join question_sets s on s.id = j.set_id
      where j.params ? 'reproduce' and ($1::text is null or j.params->>'reproduce' = $1)
        and ($2::text is null or j.owner_id is null or j.owner_id = $2)
      order by j.created_at desc limit 50`,
    [tableId, ownerId],
  );
}

/** A new job's columns (its JSON ones as they are stored) and one item per question × method × configuration. */
export interface NewJob {
  ownerId: string | null;
  shareId: string;
  setId: string;
  name: string;
  methods: string[];
  grid: GridConfig[];
  settings: JobSettings;
  sample: JobSample;
  total: number;
  items: { questionId: string; method: string; configKey: string }[];
}

const ITEMS_PER_STATEMENT = 5_000;

/**
 * Stores a job and its items in one transaction; `whileUncommitted` runs on the new
 * id before the commit (nobody else can know the id yet: taking the job's lock then
 * makes it surely ours).
 */
export async function insertJob(job: NewJob, whileUncommitted?: (jobId: string) => Promise<void>): Promise<{ id: string; shareId: string }> {
  const prisma = await getPrisma();
  const { items, grid, settings, sample, ...columns } = job;
  return prisma.$transaction(
    async (tx) => {
      const created = await tx.evalJob.create({
        data: { ...columns, grid: toJson(grid), params: toJson(settings), sample: toJson(sample) },
        select: { id: true, shareId: true },
      });
      const rows = items.map((item) => ({ jobId: created.id, ...item }));
      for (let i = 0; i < rows.length; i += ITEMS_PER_STATEMENT) await tx.evalItem.createMany({ data: rows.slice(i, i + ITEMS_PER_STATEMENT) });
      await whileUncommitted?.(created.id);
      return created;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/** Deletes a job with its items and runs (a benchmark's scratch job). */
export async function deleteJob(jobId: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$transaction([prisma.run.deleteMany({ where: { evalJobId: jobId } }), prisma.evalJob.delete({ where: { id: jobId } })]);
}
