import { createEvalJob, type CreatedEvalJob } from '@/lib/eval/jobs/create';
import type { GridConfig } from '@/lib/eval/jobs/grid';
import { jobItems, jobSet, loadJob, reproductionJobs, type LoadedJob } from '@/lib/eval/jobs/store';
import type { JobLock } from '@/lib/eval/jobs/store/lock';
import { jobProgress, type JobProgress } from '@/lib/eval/jobs/progress';
import { summarise } from '@/lib/eval/jobs/aggregate';
import { NotFoundError } from '@/lib/base/errors';
import type { K2vReport } from '@/lib/verify';
import { latestReports } from '@/lib/verify/store';
import { CATALOGUE, findTable, rowSwitches, type ReproductionTable, type RewardForm, type TableRow } from './catalogue';

export { CATALOGUE } from './catalogue';

export interface ReproduceRequest {
  set: string;
  /** The signed-in user who starts it (lib/auth/access); null without sign-in. */
  ownerId?: string | null;
  limit?: number;
  seed?: string;
  backend?: 'auto' | 'offline' | 'openai';
  concurrency?: number;
}

/** A row's configuration key in the job: the row id (rows of different methods may share one). */
const configOf = (row: TableRow): GridConfig => ({
  key: row.id,
  switches: rowSwitches(row),
  kgShuffle: !!row.kgShuffle,
  ...(row.params ? { params: row.params } : {}),
  label: row.label,
});

function tableOrThrow(id: string): ReproductionTable {
  const table = findTable(id);
  if (!table) throw new NotFoundError(`No reproduction table "${id}"; the catalogue: ${CATALOGUE.map((t) => t.id).join(', ')}`);
  return table;
}

/**
 * Starts a table on a question set as an evaluation job (resumable like any
 * other): the rows' distinct methods × the rows' configurations, each row's
 * parameters set over the method's defaults.
 */
export async function startReproduction(tableId: string, req: ReproduceRequest): Promise<CreatedEvalJob>;
export async function startReproduction(tableId: string, req: ReproduceRequest, opts: { lock: true }): Promise<CreatedEvalJob & { lock: JobLock }>;
export async function startReproduction(tableId: string, req: ReproduceRequest, opts: { lock?: boolean } = {}): Promise<CreatedEvalJob & { lock?: JobLock }> {
  const table = tableOrThrow(tableId);
  const grid = [...new Map(table.rows.map((r) => [r.id, configOf(r)])).values()];
  const methods = [...new Set([...table.rows.map((r) => r.method), ...(table.kind === 'buckets' ? table.columns.map((c) => c.method) : [])])];
  const { ownerId, ...request } = req;
  const body = { ...request, methods, name: `${table.paper}: ${table.title}` };
  const reproduce = { table: table.id, grid };
  return opts.lock ? createEvalJob(body, { lock: true, reproduce, ownerId }) : createEvalJob(body, { reproduce, ownerId });
}

export interface ReproductionRow {
  label: string;
  /** `params`: the run parameters in effect; `overrides`: what the row sets over the method's defaults (its ablation). */
  config: { method: string; switches: string; kgShuffle: boolean; params: Record<string, unknown>; overrides: Record<string, unknown> };
  paper: Record<string, number | string>;
  ours: Record<string, number | null>;
  /** Metric keys of `ours` that are estimates (tokens counted as chars/4 where the backend reported none, as the evaluation tables do). */
  estimated: string[];
  /** Finished runs behind `ours`. */
  n: number;
  /** The row's runs, in question order. */
  runs: string[];
}

export interface ReproductionView {
  table: string;
  paper: string;
  title: string;
  note: string;
  metrics: { key: string; label: string; percent?: boolean }[];
  rows: ReproductionRow[];
  job: { id: string; status: LoadedJob['status']; set: string; backend: string; model: string; offline: boolean; progress: JobProgress };
}

/** The jobs that reproduce a table, newest first; with an owner, that owner's and those without one (see lib/auth/access). */
export async function listReproductions(
  tableId?: string,
  ownerId?: string | null,
): Promise<{ id: string; table: string; status: string; set: string; done: number; total: number; createdAt: string }[]> {
  const rows = await reproductionJobs(tableId ?? null, ownerId ?? null);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** The table filled in from a reproduction job: our figures per row beside the paper's, each row with its runs. */
export async function reproductionView(jobId: string): Promise<ReproductionView> {
  const job = await loadJob({ id: jobId });
  if (!job.settings.reproduce) throw new NotFoundError(`Evaluation ${jobId} does not reproduce a table`);
  const table = tableOrThrow(job.settings.reproduce);
  const items = await jobItems(job.id);
  const summary = summarise(items, job.methods, job.grid);
  const [progress, set] = await Promise.all([jobProgress(job.id, job.status === 'running'), jobSet(job.setId)]);
  const runsOf = (method: string, key: string) => items.filter((i) => i.method === method && i.configKey === key && i.runId).map((i) => i.runId!);
  const finishedOf = (method: string, key: string) => items.filter((i) => i.method === method && i.configKey === key && i.outcome).length;
  const config = (row: TableRow): ReproductionRow['config'] => ({
    method: row.method,
    switches: row.switches ?? 'full',
    kgShuffle: !!row.kgShuffle,
    params: { ...job.settings.methodParams[row.method], ...row.params },
    overrides: row.params ?? {},
  });
  const base = {
    table: table.id,
    paper: table.paper,
    title: table.title,
    note: table.note,
    job: {
      id: job.id,
      status: job.status,
      set: set?.name ?? job.setId,
      backend: job.settings.backend.backend,
      model: job.settings.backend.model,
      offline: job.settings.backend.backend === 'offline',
      progress,
    },
  };

  if (table.kind === 'buckets') {
    const bucketed = summary.attribution?.bucketed ?? [];
    const metrics = [{ key: 'instances', label: '#Instances' }, ...table.columns.map((c) => ({ key: c.method, label: c.label, percent: true }))];
    const paper: Record<string, Record<string, number>> = {
      'needs-KG': { '#Instances': 186, 'Direct Acc.': 41.4, 'Iterative Acc.': 58.2 },
      'needs-Entity': { '#Instances': 98, 'Direct Acc.': 52.0, 'Iterative Acc.': 61.5 },
      'needs-Parametric': { '#Instances': 51, 'Direct Acc.': 39.2, 'Iterative Acc.': 47.8 },
    };
    const reference = table.rows.map((r) => r.method)[0];
    const rows = bucketed.map((b): ReproductionRow => ({
      label: b.bucket,
      config: { method: summary.attribution!.referenceMethod, switches: 'bucketed by full + single-off reruns', kgShuffle: false, params: {}, overrides: {} },
      paper: paper[b.bucket] ?? {},
      ours: { instances: b.instances, ...Object.fromEntries(table.columns.map((c) => [c.method, b.accuracy[c.method] ?? null])) },
      estimated: [],
      n: b.instances,
      runs: runsOf(reference, 'full'),
    }));
    return { ...base, metrics, rows };
  }

  if (table.kind === 'k2v') {
    const reports = await latestReports(items.flatMap((i) => (i.runId ? [i.runId] : [])));
    const metrics = table.forms.map((f) => ({ key: f.key, label: f.label }));
    const rows = table.rows.map((row): ReproductionRow => {
      const runs = runsOf(row.method, row.id);
      const mine = runs.flatMap((id) => (reports.has(id) ? [reports.get(id)!] : []));
      return {
        label: row.label,
        config: config(row),
        paper: row.paper,
        ours: Object.fromEntries(table.forms.map((f) => [f.key, mean(mine.flatMap((r) => rewardOf(r, f.key)))])),
        estimated: [],
        n: mine.length,
        runs,
      };
    });
    return { ...base, metrics, rows };
  }

  const rows = table.rows.map((row): ReproductionRow => {
    const cell = summary.scores.find((s) => s.method === row.method && s.config === row.id);
    const family = summary.families.rows.find((f) => f.method === row.method && f.config === row.id);
    const ours: Record<string, number | null> = {};
    for (const m of table.metrics) {
      if (m.key === 'avgTokensK') ours[m.key] = cell?.avgTokensIn == null ? null : ((cell.avgTokensIn ?? 0) + (cell.avgTokensOut ?? 0)) / 1000;
      else if (m.key === 'overallAvg') ours[m.key] = family?.overallAvg ?? null;
      else ours[m.key] = (cell?.[m.key] as number | null | undefined) ?? null;
    }
    const estimated = cell?.tokensEstimated ? table.metrics.filter((m) => m.key === 'avgTokensK').map((m) => m.key) : [];
    return { label: row.label, config: config(row), paper: row.paper, ours, estimated, n: finishedOf(row.method, row.id), runs: runsOf(row.method, row.id) };
  });
  return { ...base, metrics: table.metrics, rows };
}

function rewardOf(r: K2vReport, form: RewardForm): number[] {
  const value =
    form === 'passRate'
      ? r.passRate
      : form === 'generalPassRate'
        ? (r.generalPassRate ?? null)
        : form === 'format'
          ? r.rewards.format
          : form === 'answer'
            ? r.rewards.answer
            : form === 'plain'
              ? r.rewards.plain
              : r.rewards.gated;
  return value === null || value === undefined ? [] : [value];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The catalogue as `reproduce --list` prints it. */
export function catalogueEntries() {
  return CATALOGUE.map((t) => ({
    id: t.id,
    seed: t.seed,
    paper: t.paper,
    title: t.title,
    rows: t.rows.map((r) => ({ label: r.label, method: r.method, switches: r.switches ?? 'full', kgShuffle: !!r.kgShuffle, params: r.params ?? {} })),
  }));
}
