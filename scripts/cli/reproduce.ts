// `npm run hopscope -- reproduce`: the seed papers' ablation tables as experiments (lib/reproduce).
import { catalogueEntries, reproductionView, startReproduction, type ReproductionView } from '../../lib/reproduce';
import { stopQueue } from '../../lib/runs/queue';
import { parseArgs, UsageError } from './args';
import { driveHere, resolveSet } from './eval';
import { withKnowledgeBase } from './session';

export const REPRODUCE_USAGE = `usage: npm run hopscope -- reproduce --list [--json]
       npm run hopscope -- reproduce <table-id> --set NAME|FILE.jsonl [--limit N] [--seed S] [--backend auto|offline|openai] [--concurrency N] [--json]
  Runs the table's rows (method × switches × parameters) on the set as one evaluation job, in this process,
  then prints the table with the paper's figures beside ours (--json: {"table","paper","metrics","rows":[{"label","config","paper","ours","estimated","n"}]};
  "estimated" names the metrics of "ours" that are estimates, printed with ≈: tokens as chars/4 where the backend reported none).
  Resume an interrupted one with: npm run hopscope -- eval --resume JOB_ID`;

export async function run(argv: string[]): Promise<number> {
  const { values, flags, positional } = parseArgs(argv, { values: ['set', 'limit', 'seed', 'backend', 'concurrency'], flags: ['json', 'list'] });
  const asJson = flags.has('json');
  if (flags.has('list')) {
    const entries = catalogueEntries();
    console.log(asJson ? JSON.stringify(entries) : entries.map((t) => `${t.id.padEnd(18)} ${t.paper}: ${t.title} (${t.rows.length} rows)`).join('\n'));
    return 0;
  }
  if (positional.length !== 1 || !values.set) throw new UsageError(REPRODUCE_USAGE);
  return withKnowledgeBase(async () => {
    try {
      const job = await startReproduction(
        positional[0],
        {
          set: await resolveSet(values.set),
          limit: values.limit as never,
          seed: values.seed,
          backend: values.backend as never,
          concurrency: values.concurrency as never,
        },
        { lock: true },
      );
      console.error(`[reproduce] job ${job.id}: ${job.total} runs`);
      const result = await driveHere(job.id, asJson, job.lock);
      const view = await reproductionView(job.id);
      console.log(asJson ? JSON.stringify(jsonOf(view)) : formatTable(view));
      if (result === 'stopped') console.error(`[reproduce] stopped; continue with: npm run hopscope -- eval --resume ${job.id}`);
      return result === 'finished' ? 0 : 1;
    } finally {
      await stopQueue();
    }
  });
}

function jsonOf(view: ReproductionView) {
  return {
    table: view.table,
    paper: view.paper,
    title: view.title,
    metrics: view.metrics,
    engine: view.job.offline ? 'offline-engine' : view.job.model,
    job: view.job.id,
    rows: view.rows.map((r) => ({ label: r.label, config: r.config, paper: r.paper, ours: r.ours, estimated: r.estimated, n: r.n, runs: r.runs })),
  };
}

function formatTable(view: ReproductionView): string {
  const fmt = (v: number | null, percent?: boolean) => (v === null ? '–' : percent ? (100 * v).toFixed(1) : Number.isInteger(v) ? String(v) : v.toFixed(2));
  const header = ['Row', ...view.metrics.map((m) => `${m.label} (ours${view.job.offline ? ', offline engine' : ''})`), 'n', 'Paper'];
  const lines = view.rows.map((r) => [
    r.label,
    ...view.metrics.map((m) => `${r.estimated.includes(m.key) && r.ours[m.key] !== null ? '≈' : ''}${fmt(r.ours[m.key] ?? null, m.percent)}`),
    String(r.n),
    Object.entries(r.paper)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ') || '–',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [
    `${view.paper}: ${view.title}  (set ${view.job.set}, ${view.job.offline ? 'offline engine (no language model)' : view.job.model})`,
    view.note,
    '',
    row(header),
    ...lines.map(row),
  ].join('\n');
}
