// `npx tsx scripts/exam-kg-decidable.ts [--out DIR]`: the published exam MCQs the KG alone decides
// (lib/eval/exam-kg), written as two JSONL question sets, DIR/exam-kg-tune.jsonl and
// DIR/exam-kg-holdout.jsonl (default DIR .data/exam-kg, never committed: the benchmark text stays
// in the data directory). Loads the knowledge base first when the database lacks it. Import with
// `npm run hopscope -- sets import --format jsonl --file DIR/exam-kg-tune.jsonl --name exam-tune`.
import path from 'node:path';
import { resolveDataDir } from '../lib/config';
import { withKnowledgeBase } from './cli/session';
import { writeExamSets } from './bench/exam-kg';

const args = process.argv.slice(2);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : path.join('.data', 'exam-kg');

withKnowledgeBase(async () => {
  const dataDir = resolveDataDir();
  if (!dataDir) throw new Error('no data directory: set HOPSCOPE_DATA_DIR or put the data in ../shared/data');
  const written = await writeExamSets(dataDir, OUT);
  for (const [part, file] of Object.entries(written.files)) console.log(`${part}: ${file}`);
  console.log(written.summary);
  return 0;
})
  .then((code) => process.exit(code))
  .catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
