// Per-question misses of an evaluation job: question, gold, answer, family, one block each, for a reader's
// author working from the tune files (never point it at a holdout set: READER.md's blindness rule).
// usage: npx tsx scripts/corpus3/misses.ts (--job JOB_ID | --set NAME) [--method M] [--config C] [--family F] [--all] [--json]
//   --set NAME   the latest job on that set;  --all  every item, not only the misses
// Reads the database the CLI uses (embedded unless DATABASE_URL; `source .wtenv` first).
import { parseArgs } from 'node:util';
import { exportItems, listEvalJobs } from '../../lib/eval/jobs';
import { withDatabase } from '../cli/session';

const USAGE = 'usage: misses.ts (--job JOB_ID | --set NAME) [--method M] [--config C] [--family F] [--all] [--json]';
const { values } = parseArgs({
  options: {
    job: { type: 'string' },
    set: { type: 'string' },
    method: { type: 'string' },
    config: { type: 'string' },
    family: { type: 'string' },
    all: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const clipped = (s: string | null | undefined, n: number) => (s && s.length > n ? `${s.slice(0, n)}…` : (s ?? ''));

/** The latest job on a set (the list is newest first). */
async function latestJob(set: string): Promise<string | null> {
  return (await listEvalJobs(1000)).find((j) => j.setName === set)?.id ?? null;
}

async function main(): Promise<number> {
  if (!values.job && !values.set) {
    console.error(USAGE);
    return 2;
  }
  const jobId = values.job ?? (await latestJob(values.set!));
  if (!jobId) {
    console.error(`no evaluation job on set "${values.set}"`);
    return 1;
  }
  const rows = (await exportItems({ id: jobId })).filter(
    (i) =>
      (!values.method || i.method === values.method) &&
      (!values.config || i.config === values.config) &&
      (!values.family || i.family === values.family) &&
      (values.all || i.outcome?.correct !== true),
  );
  if (values.json) {
    console.log(JSON.stringify({ job: jobId, rows }));
    return 0;
  }
  console.log(`job ${jobId}: ${rows.length} ${values.all ? 'items' : 'misses'}`);
  for (const r of rows) {
    const o = r.outcome;
    const mark = o?.correct ? '✓' : o?.abstained ? '✗ abstained' : '✗';
    console.log(`\n[${r.method} ${r.config}] ${r.family ?? ''} ${mark}  run ${r.runId ?? '-'}`);
    console.log(`  Q: ${r.question}`);
    console.log(`  gold:   ${clipped(r.gold, 300)}`);
    console.log(`  answer: ${clipped(o?.answer ?? o?.error ?? '(not finished)', 300)}`);
  }
  return 0;
}

withDatabase(main, { knowledge: false })
  .then((code) => process.exit(code))
  .catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
