import { readEnv, resolveDataDir } from '../../lib/config';
import { ensureDatabase } from '../../lib/db/bootstrap';

/**
 * Runs a command against the database (embedded unless DATABASE_URL), and closes everything
 * after. `knowledge`: with the knowledge base loaded first (the KG the generators draw from,
 * the corpus imported questions link to); a command that only reads what is stored skips it.
 */
export async function withDatabase(command: () => Promise<number>, { knowledge }: { knowledge: boolean }): Promise<number> {
  const env = readEnv();
  const db = await ensureDatabase(env);
  try {
    if (knowledge) {
      const { loadDefaultKnowledge } = await import('../../lib/kg/import');
      await loadDefaultKnowledge({ dataDir: resolveDataDir(env), log: (line) => console.error(`[hopscope] ${line}`) });
    }
    return await command();
  } finally {
    await db.stop();
  }
}

/** withDatabase with the knowledge base loaded. */
export const withKnowledgeBase = (command: () => Promise<number>) => withDatabase(command, { knowledge: true });
