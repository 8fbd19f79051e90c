// Assembles corpus 3 (issue 18): the KG fact sheets (scripts/corpus3/facts.ts) joined with the questions
// blind writers wrote from their descriptions alone, split tune/holdout by a hash of the id
// (40 % tune, the part a reader's author may look at; 60 % holdout, never opened by that author).
// usage: npx tsx scripts/corpus3/assemble.ts FACTS.jsonl WRITTEN.jsonl [WRITTEN.jsonl …]
// Env CORPUS (default paraphrase3) names the output files; TUNE_SHARE (default 0.4) is the tune part: 0 keeps a whole corpus held out.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const Fact = z.object({
  id: z.string(),
  group: z.string(),
  family: z.string(),
  answer_type: z.enum(['list', 'count', 'yesno', 'mcq']),
  answer: z.union([z.string(), z.number(), z.array(z.string())]),
  gold_nodes: z.array(z.string()).optional(),
  options: z.array(z.string()).optional(),
  answer_key: z.string().optional(),
  mcq_mode: z.enum(['object', 'inline', 'both']).optional(),
  style: z.string(),
  metaedges: z.array(z.string()),
  hops: z.number(),
});
const Written = z.object({ id: z.string(), question: z.string().min(3), options: z.array(z.string()).optional() });

/** Counts this large are not a fair question for a person to check; they are left out. */
const MAX_COUNT = 200;
const LETTERS = 'ABCDEFGH';
const CORPUS = process.env.CORPUS ?? 'paraphrase3';
const TUNE_SHARE = Number(process.env.TUNE_SHARE ?? 0.4);

const readJsonl = <T>(file: string, schema: z.ZodType<T>) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => schema.parse(JSON.parse(l)));

function line(fact: z.infer<typeof Fact>, question: string) {
  const meta = { family: fact.group, id: fact.id, relation_family: fact.family, metaedges: fact.metaedges, hops: fact.hops, style: fact.style };
  const base = { question, family: fact.group, gold_nodes: fact.gold_nodes, meta };
  if (fact.answer_type !== 'mcq') return { ...base, answer: fact.answer, answer_type: fact.answer_type };
  const options = fact.options ?? [];
  // Inline-only options travel in the text alone, so the item is scored as an open answer (as in corpora 1 and 2).
  if (fact.mcq_mode === 'inline') return { ...base, answer: fact.answer, answer_type: 'open' };
  const key = fact.answer_key ?? LETTERS[options.indexOf(String(fact.answer))];
  return { ...base, answer: key, answer_type: 'mcq', options: Object.fromEntries(options.map((o, i) => [LETTERS[i], o])) };
}

function main() {
  const [factsFile, ...writtenFiles] = process.argv.slice(2);
  if (!factsFile || !writtenFiles.length) throw new Error('usage: assemble.ts FACTS.jsonl WRITTEN.jsonl [...]');
  const facts = new Map(readJsonl(factsFile, Fact).map((f) => [f.id, f]));
  const parts = { tune: [] as string[], holdout: [] as string[] };
  let dropped = 0;
  for (const written of writtenFiles.flatMap((f) => readJsonl(f, Written))) {
    const fact = facts.get(written.id);
    if (!fact) throw new Error(`${written.id}: no such fact`);
    if (fact.answer_type === 'count' && Number(fact.answer) > MAX_COUNT) {
      dropped++;
      continue;
    }
    const tune = createHash('sha256').update(written.id).digest()[0] < TUNE_SHARE * 256;
    parts[tune ? 'tune' : 'holdout'].push(JSON.stringify(line(fact, written.question)));
  }
  const dir = path.join('tests', 'fixtures', 'paraphrase');
  for (const [part, lines] of Object.entries(parts)) if (lines.length) writeFileSync(path.join(dir, `${CORPUS}-${part}.jsonl`), lines.sort().join('\n') + '\n');
  console.log(`tune ${parts.tune.length}, holdout ${parts.holdout.length}, dropped ${dropped} counts over ${MAX_COUNT}`);
}

main();
