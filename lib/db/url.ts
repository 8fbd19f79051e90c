/** The database this process uses (DATABASE_URL): a name for it, or what a client outside lib/db (the run queue's pg-boss) connects to. */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start through `npm start` or call ensureDatabase() first');
  return url;
}
