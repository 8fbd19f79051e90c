import { NotFoundError } from '@/lib/base/errors';
import { redactForClient } from '@/lib/base/redact';
import { ownerFilter } from '@/lib/auth/access';
import type { Viewer } from '@/lib/auth/viewer';
import type { EvalSummary } from './aggregate';
import { storedSummary } from './summary-schema';
import { questionBuckets, type QuestionBucket } from './buckets';
import { cellKey, groupBy } from './group';
import type { GridConfig } from './grid';
import { matrixColumns, matrixRows, cellState, type CellState, type MatrixColumn, type MatrixQuestion, type MatrixRow } from './matrix';
import { jobProgress, type JobProgress } from './progress';
import { ITEM_OUTCOMES, type ItemOutcome, type JobSample } from './schemas';
import { computeSummary } from './summary';
import { itemsOfQuestions, jobQuestion, jobQuestionsPage, jobSet, listJobs, loadJob, type JobWhere, type LoadedJob } from './store';

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
  const jobs = await listJobs(viewer ? ownerFilter(viewer) : undefined, limit);
  return jobs.map((j) => ({
    id: j.id,
    shareId: j.shareId,
    name: j.name,
    setName: j.setName,
    status: j.status,
    methods: j.methods,
    configs: j.grid.map((g) => g.key),
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
  const finished = (ITEM_OUTCOMES as readonly string[]).includes(job.status);
  const [set, progress, summary] = await Promise.all([
    jobSet(job.setId),
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
  const { questions, total } = await jobQuestionsPage(job.id, offset, limit);
  const items = await itemsOfQuestions(
    job.id,
    questions.map((q) => q.questionId),
    isShared(where),
  );
  const columns = matrixColumns(
    job.methods,
    job.grid.map((g) => g.key),
  );
  const byQuestion = groupBy(items, (i) => i.questionId);
  const rows = matrixRows(questions, items, columns).map((row) => ({
    ...row,
    buckets: questionBuckets(byQuestion.get(row.questionId) ?? [], job.methods, job.grid),
  }));
  return redactForClient({ columns, rows, total, offset, limit });
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
  const question = await jobQuestion(job.id, questionId);
  if (!question) throw new NotFoundError(`The evaluation has no question ${questionId}`);
  const items = await itemsOfQuestions(job.id, [questionId], isShared(where));
  const byCell = new Map(items.map((i) => [cellKey(i.method, i.configKey), i]));
  const runs = matrixColumns(
    job.methods,
    job.grid.map((g) => g.key),
  ).map(({ method, config }) => {
    const item = byCell.get(cellKey(method, config));
    return { method, config, runId: item?.runId ?? null, state: cellState(item), outcome: item?.outcome ?? null };
  });
  return redactForClient({ question, runs, buckets: questionBuckets(items, job.methods, job.grid) });
}

/** Behind a share link every run is named by its share id (its link is /r/{shareId}), never by its private id. */
export const isShared = (where: JobWhere) => 'shareId' in where;
