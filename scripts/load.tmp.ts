import { readEnv, resolveDataDir } from '../lib/config';
import { ensureDatabase } from '../lib/db/bootstrap';
import { loadDefaultKnowledge } from '../lib/kg/import';
async function main() {
  const env = readEnv();
  const db = await ensureDatabase(env);
  await loadDefaultKnowledge({ dataDir: resolveDataDir(env), log: (l) => console.error(l) });
  await db.stop();
}
main();
