// `npx tsx scripts/exam-kg-decidable.ts [--out DIR]`: the published exam MCQs the KG alone decides
// (lib/eval/exam-kg.ts), written as two JSONL question sets, DIR/exam-kg-tune.jsonl and
// DIR/exam-kg-holdout.jsonl (default DIR .data/exam-kg, never committed: the benchmark text stays
// in the data directory). Loads the knowledge base first when the database lacks it. Import with
// `npm run hopscope -- sets import --format jsonl --file DIR/exam-kg-tune.jsonl --name exam-tune`.
import path from 'node:path';
import { readEnv, resolveDataDir } from '../lib/config';
import { ensureDatabase } from '../lib/db/bootstrap';
import { closeDb } from '../lib/db/client';
import { writeExamSets } from './bench/exam-kg';

const args = process.argv.slice(2);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : path.join('.data', 'exam-kg');

async function main() {
  const env = readEnv();
  const dataDir = resolveDataDir(env);
  if (!dataDir) throw new Error('no data directory: set HOPSCOPE_DATA_DIR or put the data in ../shared/data');
  const db = await ensureDatabase(env);
  try {
    const { loadDefaultKnowledge } = await import('../lib/kg/import');
    await loadDefaultKnowledge({ dataDir, log: (line) => console.error(`[exam-kg] ${line}`) });
    const written = await writeExamSets(dataDir, OUT);
    for (const [part, file] of Object.entries(written.files)) console.log(`${part}: ${file}`);
    console.log(written.summary);
  } finally {
    await closeDb();
    await db.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
