import { applyMigrations } from '../../lib/db/migrate';
import { testServer } from './test-db';
import { resolveDataDir } from '../../lib/config';
import { describeKnowledge, loadDefaultKnowledge } from '../../lib/kg/import';
import { closeDb } from '../../lib/db/client';

/**
 * Starts the test PostgreSQL, migrates it and loads the knowledge base once
 * (Hetionet subset, profiles, documents from the data directory; the demo graph
 * without one). Later runs find it loaded and skip the import.
 */
export default async function setup() {
  const server = await testServer();
  await applyMigrations(server.url);
  process.env.DATABASE_URL = server.url;
  await loadDefaultKnowledge({ dataDir: resolveDataDir(), log: (line) => console.log(`[test-db] ${line}`) });
  console.log(`[test-db] knowledge base: ${await describeKnowledge()}`);
  await closeDb();
  return async () => {
    await server.stop();
  };
}
