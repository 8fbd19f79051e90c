import pg from 'pg';

/**
 * Counts the statements this process sends to PostgreSQL (by the pool and by Prisma's
 * adapter alike, both pg clients) until `stop`: what the benchmarks report per run.
 */
export function countStatements(): { stop(): number } {
  let sent = 0;
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    sent++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    stop() {
      pg.Client.prototype.query = original;
      return sent;
    },
  };
}
