import { getPool, getPrisma } from '@/lib/db/client';
import { NotFoundError } from '@/lib/base/errors';
import { redactForClient } from '@/lib/runs/redact';
import { ownerFilter } from '@/lib/auth/access';
import type { Viewer } from '@/lib/auth/viewer';
import type { EvalSummary, ScoredItem } from './aggregate';
import { storedSummary } from './summary-schema';
import { questionBuckets, type QuestionBucket } from './buckets';
import { cellKey, groupBy } from './group';
import type { GridConfig } from './grid';
import { loadJob, type JobWhere, type LoadedJob } from './load';
import { matrixColumns, matrixRows, cellState, type CellState, type MatrixColumn, type MatrixQuestion, type MatrixRow } from './matrix';
import { jobProgress, type JobProgress } from './progress';
import { ItemOutcomeSchema, JobGridSchema, type ItemOutcome, type JobSample } from './schemas';
import { computeSummary } from './summary';

const FINISHED = ['succeeded', 'failed', 'cancelled'];

export interface EvalJobListEntry {
  id: string;
  shareId: string;
  name: string | null;
  setName: string | null;
  status: string;
  methods: string[];
  configs: string[];
  total: number;
  done: number;
  errors: number;
  createdAt: string;
  finishedAt: string | null;
}

export async function listEvalJobs(limit = 50, viewer?: Viewer): Promise<EvalJobListEntry[]> {
  const jobs = await getPrisma().evalJob.findMany({ where: viewer ? ownerFilter(viewer) : undefined, orderBy: { createdAt: 'desc' }, take: limit });
  const sets = await getPrisma().questionSet.findMany({ where: { id: { in: [...new Set(jobs.map((j) => j.setId))] } }, select: { id: true, name: true } });
  const setName = new Map(sets.map((s) => [s.id, s.name]));
  return jobs.map((j) => ({
    id: j.id,
    shareId: j.shareId,
    name: j.name,
    setName: setName.get(j.setId) ?? null,
    status: j.status,
    methods: j.methods,
    configs: (JobGridSchema.safeParse(j.grid).data ?? []).map((g) => g.key),
    total: j.total,
    done: j.done,
    errors: j.errors,
    createdAt: j.createdAt.toISOString(),
    finishedAt: j.finishedAt?.toISOString() ?? null,
  }));
}

/** The evaluation page's data: the job, its live progress and its tables. Plain JSON (dates as ISO strings): the same value hydrates the client. */
export interface EvalJobView {
  /** Absent on the read-only share view, which must not offer the job's controls. */
  id: string | null;
  shareId: string;
  name: string | null;
  status: LoadedJob['status'];
  set: { id: string; name: string; source: string; license: string | null } | null;
  methods: string[];
  configs: GridConfig[];
  backend: { backend: string; model: string };
  concurrency: number;
  sample: JobSample | null;
  progress: JobProgress;
  summary: EvalSummary;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export async function getEvalJobView(where: JobWhere): Promise<EvalJobView> {
  const job = await loadJob(where);
  const finished = FINISHED.includes(job.status);
  const [set, progress, summary] = await Promise.all([
    getPrisma().questionSet.findUnique({ where: { id: job.setId }, select: { id: true, name: true, source: true, license: true } }),
    jobProgress(job.id, job.status === 'running'),
    // A finished job shows the tables frozen when it finished (unless they were written in an older shape).
    (finished ? storedSummary(job.summary) : null) ?? computeSummary(job),
  ]);
  return redactForClient({
    id: 'id' in where ? job.id : null,
    shareId: job.shareId,
    name: job.name,
    status: job.status,
    set,
    methods: job.methods,
    configs: job.grid,
    backend: { backend: job.settings.backend.backend, model: job.settings.backend.model },
    concurrency: job.settings.concurrency,
    sample: job.sample,
    progress,
    summary,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  });
}

export interface MatrixPage {
  columns: MatrixColumn[];
  /** Each row with its X-R2 attribution bucket per method (none when the grid cannot attribute). */
  rows: (MatrixRow & { buckets: QuestionBucket[] })[];
  /** Questions in the job. */
  total: number;
  offset: number;
  limit: number;
}

/** A page of the questions × configurations matrix, in question order. */
export async function getMatrixPage(where: JobWhere, { offset = 0, limit = 50 } = {}): Promise<MatrixPage> {
  const job = await loadJob(where);
  const pool = getPool();
  const [{ rows: questions }, { rows: count }] = await Promise.all([
    pool.query<MatrixQuestion>(
      `select q.id "questionId", q.ordinal, left(q.text, 300) text, q.family, q.answer_type "answerType"
         from questions q where q.id in (select question_id from eval_items where job_id = $1)
        order by q.ordinal offset $2 limit $3`,
      [job.id, offset, limit],
    ),
    pool.query<{ n: number }>(`select count(distinct question_id)::int n from eval_items where job_id = $1`, [job.id]),
  ]);
  const items = await itemsOf(job.id, questions.map((q) => q.questionId), isShared(where));
  const columns = matrixColumns(job.methods, job.grid.map((g) => g.key));
  const byQuestion = groupBy(items, (i) => i.questionId);
  const rows = matrixRows(questions, items, columns).map((row) => ({ ...row, buckets: questionBuckets(byQuestion.get(row.questionId) ?? [], job.methods, job.grid) }));
  return redactForClient({ columns, rows, total: count[0].n, offset, limit });
}

export interface QuestionDrilldown {
  question: MatrixQuestion & { options: unknown; gold: unknown };
  runs: { method: string; config: string; runId: string | null; state: CellState; outcome: ItemOutcome | null }[];
  /** X-R2's label per method and the runs behind it (none when the grid cannot attribute). */
  buckets: QuestionBucket[];
}

/** One question of the job: its text, gold answer, and every run of it with the answer each gave. */
export async function getQuestionDrilldown(where: JobWhere, questionId: string): Promise<QuestionDrilldown> {
  const job = await loadJob(where);
  const { rows } = await getPool().query<MatrixQuestion & { options: unknown; gold: unknown }>(
    `select q.id "questionId", q.ordinal, q.text, q.family, q.answer_type "answerType", q.options, q.answer gold
       from questions q where q.id = $1 and exists (select 1 from eval_items where job_id = $2 and question_id = q.id)`,
    [questionId, job.id],
  );
  if (!rows.length) throw new NotFoundError(`The evaluation has no question ${questionId}`);
  const items = await itemsOf(job.id, [questionId], isShared(where));
  const byCell = new Map(items.map((i) => [cellKey(i.method, i.configKey), i]));
  const runs = matrixColumns(job.methods, job.grid.map((g) => g.key)).map(({ method, config }) => {
    const item = byCell.get(cellKey(method, config));
    return { method, config, runId: item?.runId ?? null, state: cellState(item), outcome: item?.outcome ?? null };
  });
  return redactForClient({ question: rows[0], runs, buckets: questionBuckets(items, job.methods, job.grid) });
}

/** Behind a share link every run is named by its share id (its link is /r/{shareId}), never by its private id. */
export const isShared = (where: JobWhere) => 'shareId' in where;
export const runRefSql = (shared: boolean) => (shared ? '(select r.share_id from runs r where r.id = i.run_id)' : 'i.run_id');

async function itemsOf(jobId: string, questionIds: string[], shared: boolean): Promise<ScoredItem[]> {
  const { rows } = await getPool().query<Omit<ScoredItem, 'outcome'> & { scores: unknown }>(
    `select i.question_id "questionId", i.method, i.config_key "configKey", q.family, q.answer_type "answerType", ${runRefSql(shared)} "runId", i.scores
       from eval_items i join questions q on q.id = i.question_id
      where i.job_id = $1 and i.question_id = any($2::text[])`,
    [jobId, questionIds],
  );
  return rows.map(({ scores, ...row }) => ({ ...row, outcome: scores ? ItemOutcomeSchema.parse(scores) : null }));
}
