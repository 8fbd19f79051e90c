// `npm run hopscope -- eval`: a question set × methods × switch grid, run in this process, then the tables.
import fs from 'node:fs';
import path from 'node:path';
import { importQuestionSet } from '../../lib/eval/import';
import { createEvalJob, driveEvalJob, getEvalJobView, GRID_PRESETS, type EvalJobView } from '../../lib/eval/jobs';
import { duration } from '../../lib/eval/jobs/format';
import type { JobLock } from '../../lib/eval/jobs/store/lock';
import { jobProgress, type JobProgress } from '../../lib/eval/jobs/progress';
import { prepareRuns } from '../../lib/runs/prepare';
import { stopQueue } from '../../lib/runs/queue';
import { parseArgs, parseParams, UsageError } from './args';
import { withKnowledgeBase } from './session';
import { formatEvalTables } from './eval-tables';

export const EVAL_USAGE = `usage: npm run hopscope -- eval --set NAME|FILE.jsonl --methods xr2,regram [--switches full,kg=0,entity=0,param=0]
         [--limit N] [--seed S] [--concurrency N] [--backend auto|offline|openai] [--params eigen1.k=1,…] [--json]
       npm run hopscope -- eval --resume JOB_ID [--json]
  --switches   configurations, comma-separated; several channels off in one: kg=0+param=0; doc-only; full+shuffle; aids=1 (the full configuration with Hopscope's aids, docs/aids.md);
               presets: ${Object.entries(GRID_PRESETS)
                 .map(([k, v]) => `${k} (${v})`)
                 .join(', ')}
  --limit N    a seeded sample of N questions (--seed, default 1); the same seed draws the same questions
  --resume ID  continue an interrupted evaluation: finished runs are kept, the rest run
  Runs execute in this process (no server needed); Ctrl-C stops, and --resume continues.`;

const FLAGS = { values: ['set', 'methods', 'switches', 'limit', 'seed', 'concurrency', 'backend', 'params', 'name', 'resume'], flags: ['json'] };

export async function run(argv: string[]): Promise<number> {
  const { values, flags, positional } = parseArgs(argv, FLAGS);
  if (positional.length) throw new UsageError(`unexpected argument "${positional[0]}"\n${EVAL_USAGE}`);
  if (!values.resume && (!values.set || !values.methods)) throw new UsageError(EVAL_USAGE);
  const asJson = flags.has('json');
  return withKnowledgeBase(async () => {
    try {
      const started = values.resume ? null : await startJob(values);
      const jobId = values.resume ?? started!.id;
      const result = await driveHere(jobId, asJson, started?.lock);
      const view = await getEvalJobView({ id: jobId });
      console.log(asJson ? JSON.stringify(jsonReport(view)) : formatEvalTables(view));
      if (result === 'stopped') console.error(`[eval] stopped; continue with: npm run hopscope -- eval --resume ${jobId}`);
      return result === 'finished' ? 0 : 1;
    } finally {
      await stopQueue();
    }
  });
}

async function startJob(values: Record<string, string>) {
  const set = await resolveSet(values.set);
  const job = await createEvalJob(
    {
      set,
      methods: values.methods,
      switches: values.switches,
      limit: values.limit,
      seed: values.seed,
      concurrency: values.concurrency,
      backend: values.backend,
      params: values.params ? methodParams(values.params) : undefined,
      name: values.name,
    },
    // Driven here: a server sharing the database must not start it first.
    { lock: true },
  );
  console.error(`[eval] job ${job.id}: ${job.total} runs`);
  return job;
}

/** A path to a .jsonl file is imported first (as the set "jsonl:<file name>", replacing the last import of that file); anything else names a stored set. */
export async function resolveSet(set: string): Promise<string> {
  if (!set.endsWith('.jsonl') || !fs.existsSync(set)) return set;
  const name = `jsonl:${path.basename(set, '.jsonl')}`;
  const imported = await importQuestionSet({ format: 'jsonl', file: set, name }, { replace: true });
  console.error(`[eval] imported ${imported.counts.total} questions from ${set} as set "${name}"`);
  return name;
}

/** "eigen1.k=1,eigen1.corrector=false" → {eigen1: {k: 1, corrector: false}}. */
function methodParams(spec: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, value] of Object.entries(parseParams(spec))) {
    const dot = name.indexOf('.');
    if (dot < 1) throw new UsageError(`--params: "${name}" needs its method, e.g. eigen1.k=1`);
    (out[name.slice(0, dot)] ??= {})[name.slice(dot + 1)] = value;
  }
  return out;
}

/** Drives the job here until it finishes; Ctrl-C stops after the runs in flight. When another process drives it, follows its progress. */
export async function driveHere(jobId: string, quiet: boolean, lock?: JobLock) {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  const started = Date.now();
  let doneBefore: number | null = null;
  const report = (p: Pick<JobProgress, 'done' | 'total' | 'errors'> & { etaMs?: number | null }) => {
    // The rate counts only what finished in this process, so a resumed job's ETA is not flattered by earlier runs.
    doneBefore ??= p.done;
    if (!quiet || process.stderr.isTTY) console.error(`[eval] ${progressLine(p, p.done - doneBefore, Date.now() - started)}`);
  };
  try {
    // The runs here are a worker's: what they read once per process is read first (every name held, lib/kg/link.ts prepareLinking).
    await prepareRuns();
    const result = await driveEvalJob(jobId, { mode: 'inline', lock, signal: stop.signal, onProgress: report });
    if (result !== 'busy') return result;
    console.error('[eval] another process is driving this job; following its progress');
    for (;;) {
      const p = await jobProgress(jobId, true);
      report(p);
      if (p.done >= p.total || stop.signal.aborted) return p.done >= p.total ? 'finished' : 'stopped';
      await new Promise((r) => setTimeout(r, 2_000));
    }
  } finally {
    process.off('SIGINT', onSignal);
  }
}

function progressLine(p: { done: number; total: number; errors: number; etaMs?: number | null }, doneHere: number, elapsedMs: number): string {
  const rate = doneHere && elapsedMs ? doneHere / (elapsedMs / 1000) : null;
  const eta = p.etaMs ?? (rate ? ((p.total - p.done) / rate) * 1000 : null);
  return `${p.done}/${p.total} done, ${p.errors} error(s)${eta !== null && p.done < p.total ? `, ETA ${duration(eta)}` : ''}`;
}

/** The one JSON object of --json: the job and its per-method × configuration scores. */
function jsonReport(view: EvalJobView) {
  return {
    job: {
      id: view.id,
      shareId: view.shareId,
      name: view.name,
      status: view.status,
      set: view.set?.name,
      methods: view.methods,
      configs: view.configs.map((c) => c.key),
      backend: view.backend,
      sample: view.sample,
    },
    progress: { total: view.progress.total, done: view.progress.done, errors: view.progress.errors },
    scores: view.summary.scores,
    families: view.summary.families,
    attribution: view.summary.attribution,
  };
}
