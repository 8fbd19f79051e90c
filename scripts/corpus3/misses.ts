// Per-question misses of an evaluation job: question, gold, answer, family, one block each, for a reader's
// author working from the tune files (never point it at a holdout set: READER.md's blindness rule).
// usage: npx tsx scripts/corpus3/misses.ts (--job JOB_ID | --set NAME) [--method M] [--config C] [--family F] [--all] [--json]
//        [--file TUNE.jsonl [--style WORD]] [--links]
//   --set NAME   the latest job on that set;  --all  every item, not only the misses
//   --file       the set's tune file: accuracy per question style (its rows' meta.style) and family, and --style picks one style
//   --links      each question's entity links (docs/linking.md)
// Reads the database the CLI uses (embedded unless DATABASE_URL; `source .wtenv` first).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exportItems, listEvalJobs } from '../../lib/eval/jobs';
import { explainLinks } from '../../lib/kg';
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
    file: { type: 'string' },
    style: { type: 'string' },
    links: { type: 'boolean', default: false },
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
  if (/holdout/i.test(`${values.set ?? ''} ${values.file ?? ''}`)) {
    console.error('misses lists tune questions only: read a holdout by its aggregate tables');
    return 2;
  }
  const styles = stylesOf(values.file);
  const items = (await exportItems({ id: jobId })).filter(
    (i) =>
      (!values.method || i.method === values.method) &&
      (!values.config || i.config === values.config) &&
      (!values.family || i.family === values.family) &&
      (!values.style || (styles.get(i.question) ?? '').includes(values.style)),
  );
  if (values.file && !values.json) {
    for (const [label, key] of [
      ['per style', (i: (typeof items)[number]) => styles.get(i.question) ?? '?'],
      ['per family', (i: (typeof items)[number]) => i.family ?? '?'],
    ] as const) {
      const groups = new Map<string, typeof items>();
      for (const i of items) groups.set(key(i), [...(groups.get(key(i)) ?? []), i]);
      console.log(`\n${label}`);
      for (const [k, g] of [...groups].sort((a, b) => a[0].localeCompare(b[0])))
        console.log(`  ${`${g.filter((i) => i.outcome?.correct).length}/${g.length}`.padStart(7)}  ${k.slice(0, 90)}`);
    }
  }
  const rows = items.filter((i) => values.all || i.outcome?.correct !== true);
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
    if (styles.size) console.log(`  style:  ${styles.get(r.question) ?? '?'}`);
    if (values.links)
      console.log(`  links:  ${(await explainLinks(r.question)).links.map((l) => `'${l.mention}' → ${l.name} (${l.kind}, ${l.match})`).join('; ')}`);
  }
  return 0;
}

/** Question text → its style, from a tune file's rows (meta.style). */
function stylesOf(file: string | undefined): Map<string, string> {
  if (!file) return new Map();
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { question: string; meta?: { style?: string } });
  return new Map(rows.map((r) => [r.question, r.meta?.style ?? '?']));
}

withDatabase(main, { knowledge: false })
  .then((code) => process.exit(code))
  .catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
