// `npm run db:migrate` applies migrations; `npm run db:migration -- NAME` writes the next one.
import { ensureDatabase } from '../lib/db/bootstrap';
import { createMigration } from '../lib/db/migrate';
import { readEnv } from '../lib/config';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import path from 'node:path';

async function main() {
  const [command, name] = process.argv.slice(2);
  if (command === 'migrate') {
    const db = await ensureDatabase();
    console.log(db.appliedMigrations.length ? `Applied: ${db.appliedMigrations.join(', ')}` : 'Database is up to date.');
    await db.stop();
  } else if (command === 'migration') {
    if (!name) throw new UsageError('usage: npm run db:migration -- NAME');
    const env = readEnv();
    // The engine diffs the migrations (replayed on a shadow database) against the schema.
    const server = env.DATABASE_URL
      ? { url: env.DATABASE_URL, stop: async () => undefined }
      : await startEmbeddedPostgres({ dir: env.HOPSCOPE_PG_DIR ?? path.resolve('.data', 'pg'), port: env.HOPSCOPE_PG_PORT, database: 'hopscope' });
    const dir = await createMigration(server.url, name);
    console.log(dir ? `Created ${path.relative(process.cwd(), dir)}/migration.sql` : 'No schema changes: no migration written.');
    await server.stop();
  } else {
    throw new UsageError('usage: db.ts migrate | migration NAME');
  }
}

class UsageError extends Error {}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(e instanceof UsageError ? 2 : 1);
});
