/** Postgres SQLSTATEs and socket codes that mean the server went away, not that a query was wrong. */
const CONNECTION_LOST_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', 'P1001', 'P1002', 'P1017', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * Whether an error (from pg or from Prisma's driver adapter) says the database
 * is unreachable: a restart or a crash, which passes, rather than a bug.
 */
export function isConnectionLoss(reason: unknown): boolean {
  for (let error = reason, depth = 0; error && typeof error === 'object' && depth < 4; depth++) {
    const { code, message, name, cause } = error as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === 'string' && CONNECTION_LOST_CODES.has(code)) return true;
    if (name === 'DatabaseNotReachable') return true;
    if (typeof message === 'string' && /Connection terminated|connection (?:is )?closed|terminating connection|Can't reach database server|DatabaseNotReachable/i.test(message)) return true;
    error = cause;
  }
  return false;
}
