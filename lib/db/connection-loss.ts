/** Postgres SQLSTATEs and socket codes that mean the server went away, not that a query was wrong. */
const CONNECTION_LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'P1001',
  'P1002',
  'P1017',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * Whether an error (from pg, or from Prisma with its driver adapter) says the database
 * is unreachable: a restart or a crash, which passes, rather than a bug.
 */
export function isConnectionLoss(reason: unknown): boolean {
  // Only the error itself, never its causes: a model endpoint that refuses a connection carries
  // ECONNREFUSED in its cause chain, and that is the run's failure, not the database's.
  const { code, message } = (reason ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CONNECTION_LOST_CODES.has(code)) return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection (?:is )?closed|terminating connection|connection error and is not queryable|Can't reach database server|DatabaseNotReachable/i.test(
      message,
    )
  );
}
