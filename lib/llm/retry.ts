/** When and how long to wait before retrying a transient model-call failure. */

export interface RetryPolicy {
  /** Total HTTP attempts for one call, the first included. */
  maxAttempts: number;
  /** Wait after the first failure; doubles after each further one. */
  baseDelayMs: number;
  /** Upper bound on any wait, a server's Retry-After included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

/**
 * The server's requested wait: `retry-after-ms` (OpenAI), else `Retry-After` as
 * seconds or as an HTTP date. Null when absent or unreadable.
 */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const millis = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const value = headers?.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Wait before the next attempt, after `failures` failed attempts (1 = first failure). */
export function backoffDelayMs(policy: RetryPolicy, failures: number, serverRequestedMs: number | null): number {
  const wait = serverRequestedMs ?? policy.baseDelayMs * 2 ** (failures - 1);
  return Math.min(policy.maxDelayMs, wait);
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts (a cancelled run must not sit in a backoff). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
