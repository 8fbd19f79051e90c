// The reading of each question of a tune file (or --q TEXT), one block each: anchors with their chains, answer kind,
// operator, output format, exclusions and notes; for a reader's author iterating on the tune files (never a holdout).
// usage: npx tsx scripts/corpus3/readings.ts (--file TUNE.jsonl [--family F] | --q "question")
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { linkEntities } from '../../lib/kg/link';
import { readQuestion } from '../../lib/reading';
import { loadMetagraph } from '../../lib/kg/loaded-metagraph';
import { withDatabase } from '../cli/session';

const { values } = parseArgs({
  options: { file: { type: 'string' }, family: { type: 'string' }, q: { type: 'string', multiple: true }, json: { type: 'boolean', default: false } },
});

async function main(): Promise<number> {
  if (/holdout/i.test(values.file ?? '')) {
    console.error('readings lists tune questions only');
    return 2;
  }
  await loadMetagraph();
  const rows: { question: string; family?: string; answer?: unknown; options?: Record<string, string> }[] = values.file
    ? readFileSync(values.file, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
    : (values.q ?? []).map((question) => ({ question }));
  for (const r of rows.filter((r) => !values.family || r.family === values.family)) {
    const links = await linkEntities(r.question);
    const u = readQuestion(r.question, { links, options: r.options });
    if (values.json) {
      const chain = (a: (typeof u.anchors)[number]) => a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|'));
      console.log(
        JSON.stringify({
          question: r.question,
          kind: u.answerKind,
          out: u.outputFormat,
          anchors: u.anchors.map((a) => ({ name: a.entity.name, kind: a.entity.kind, negated: a.negated, chain: chain(a) })),
          propositions: u.propositions.length,
          excluded: u.excluded.map((e) => e.name),
        }),
      );
      continue;
    }
    console.log(`\n[${r.family ?? ''}] ${r.question}`);
    if (r.answer !== undefined) console.log(`  gold: ${JSON.stringify(r.answer).slice(0, 200)}`);
    console.log(`  links: ${links.map((l) => `'${l.mention}'→${l.name} (${l.kind})`).join('; ')}`);
    console.log(`  kind=${u.answerKind} from=${u.answerKindFrom} op=${u.operator} out=${u.outputFormat}`);
    for (const a of u.anchors)
      console.log(
        `  anchor ${a.negated ? 'NOT ' : ''}${a.entity.name} (${a.entity.kind}): ${a.chain.map((h) => `${h.edges.map((e) => (e.metaedge.includes('>') ? `${e.metaedge}(from ${e.fromEnd})` : e.metaedge)).join('|')}`).join(' > ')}`,
      );
    for (const p of u.propositions)
      console.log(`  prop ${p.negated ? 'NOT ' : ''}${p.subject.name} -${p.hop.edges.map((e) => e.metaedge).join('|')}- ${p.object.name}`);
    for (const o of u.options) console.log(`  option ${o.letter} '${o.text}' → ${o.links.map((l) => `${l.name} (${l.kind})`).join(' | ') || 'unlinked'}`);
    if (u.excluded.length) console.log(`  excluded: ${u.excluded.map((e) => e.name).join(', ')}`);
    if (u.notes.length) console.log(`  notes: ${u.notes.join(' | ')}`);
  }
  return 0;
}

withDatabase(main, { knowledge: false })
  .then((code) => process.exit(code))
  .catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
