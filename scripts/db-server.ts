// `npm run db:server`: runs the embedded PostgreSQL in the foreground (for development
// tools and a second terminal); migrates it first. Ctrl-C stops it.
import { ensureDatabase } from '../lib/db/bootstrap';

async function main() {
  const db = await ensureDatabase();
  console.log(`PostgreSQL ready at ${db.url.replace(/:[^:@/]+@/, ':***@')}${db.embedded ? ' (embedded)' : ''}`);
  const stop = async () => {
    await db.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => undefined, 1 << 30);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
