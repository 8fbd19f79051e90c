/**
 * Fact sheets for the blind paraphrase corpora (issue 18, "A third blind corpus", and later ones).
 *
 * Each fact names its entities exactly as the KG does, says what a question should ask
 * (never the answer) and how to write it; the gold is read from the loaded KG by SQL.
 * Writers who have not read the reader turn descriptions into questions; the answers
 * stay here. Deterministic: a seeded generator over id-sorted candidates, so a rerun on
 * the same KG gives the same sheets.
 *
 *   DATABASE_URL=… npx tsx scripts/corpus3/facts.ts [OUT] [SEED] [default|alt] [handpicked|metapaths]
 *
 * OUT defaults to /work/corpus3/facts.jsonl. Another seed and the `alt` style set give a further
 * corpus with new anchors and writers' styles. `metapaths` composes the families from the
 * metaedges themselves (scripts/corpus3/metapaths.ts) and leaves out descriptions that earlier
 * corpora (/work/corpus*​/facts*.jsonl) already asked.
 * Without DATABASE_URL it starts the test PostgreSQL and loads the KG as the test setup does.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { handPicked } from './families';
import { load } from './graph';
import { metapaths } from './metapaths';
import { seedRandom } from './random';
import { facts, rememberDescriptions, writeSheet } from './sheet';
import { assignStyles } from './styles';

const OUT = process.argv[2] ?? '/work/corpus3/facts.jsonl';
const SEED = process.argv[3] ? Number(process.argv[3]) : 0xc3f4c7;
const STYLE_SET = process.argv[4] === 'alt' ? 'alt' : 'default';
const MODE = process.argv[5] === 'metapaths' ? 'metapaths' : 'handpicked';

/** The fact files of the earlier corpora next to OUT's folder (/work/corpusN/facts*.jsonl). */
function earlierFactFiles(): string[] {
  const root = path.dirname(path.dirname(path.resolve(OUT)));
  const mine = path.dirname(path.resolve(OUT));
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^corpus\d+$/.test(d.name) && path.join(root, d.name) !== mine)
    .flatMap((d) =>
      readdirSync(path.join(root, d.name))
        .filter((f) => /^facts.*\.jsonl$/.test(f))
        .map((f) => path.join(root, d.name, f)),
    );
}

async function main() {
  seedRandom(SEED);
  await load();
  if (MODE === 'metapaths') {
    console.log(`${rememberDescriptions(earlierFactFiles())} descriptions of earlier corpora left out`);
    await metapaths();
  } else await handPicked();
  assignStyles(facts, STYLE_SET);
  writeSheet(OUT, MODE === 'metapaths' ? 'mp' : 'c3');
  console.log(`${facts.length} facts → ${OUT}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
