// `npx tsx scripts/corpus3/links.ts "question" …`: each question's links and rejections (docs/linking.md), for reading a linking change.
import { ensureDatabase } from '../../lib/db/bootstrap';
import { explainLinks } from '../../lib/kg';

async function main() {
  const db = await ensureDatabase();
  try {
    for (const text of process.argv.slice(2)) {
      const { links, rejected } = await explainLinks(text);
      console.log(`\n${text}`);
      for (const l of links)
        console.log(
          `  '${l.mention}' → ${l.name} (${l.kind}; ${l.match} ${l.confidence}${l.readings?.length ? `; also ${l.readings.map((r) => `${r.name} (${r.kind})`).join(', ')}` : ''})`,
        );
      if (process.env.REJECTED) for (const r of rejected) console.log(`  x '${r.mention}' ${r.name} (${r.kind}): ${r.reason}`);
    }
  } finally {
    await db.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
