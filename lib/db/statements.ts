import pg from 'pg';

/**
 * Records the text of every statement this process sends to PostgreSQL (by the pool and by
 * Prisma's adapter alike, both pg clients) until `stop`: what tests inspect per search.
 */
export function recordStatements(): { stop(): string[] } {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = args[0];
    sent.push(typeof text === 'string' ? text : String((text as { text?: string })?.text ?? ''));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    stop() {
      pg.Client.prototype.query = original;
      return sent;
    },
  };
}

/** The number of statements sent until `stop`: what the benchmarks report per run. */
export function countStatements(): { stop(): number } {
  const recording = recordStatements();
  return { stop: () => recording.stop().length };
}
