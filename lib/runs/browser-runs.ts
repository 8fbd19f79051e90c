/**
 * "Recent runs" scoped to this browser: the ids of the runs started from it,
 * newest first, kept in a first-party cookie (no account needed, nothing
 * stored server-side). A run id is its own capability, so when runs get owners
 * the list stays a subset of what the owner may read. Pure; the cookie itself
 * is read and written by the app's entry points.
 */
export const BROWSER_RUNS_COOKIE = 'hopscope_runs';
/** Ids remembered at most (about 1.3 kB of cookie). */
export const MAX_REMEMBERED_RUNS = 50;
export const BROWSER_RUNS_MAX_AGE_S = 365 * 24 * 3600;

const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The remembered ids in a cookie value ("id1.id2…"); anything malformed is dropped. */
export function parseRememberedRuns(value: string | undefined | null): string[] {
  if (!value) return [];
  return [...new Set(value.split('.').filter((id) => RUN_ID.test(id)))].slice(0, MAX_REMEMBERED_RUNS);
}

/** The cookie value after starting run `id`: it first, then the others, capped. */
export function rememberRun(value: string | undefined | null, id: string): string {
  if (!RUN_ID.test(id)) return parseRememberedRuns(value).join('.');
  return [id, ...parseRememberedRuns(value).filter((x) => x !== id)].slice(0, MAX_REMEMBERED_RUNS).join('.');
}
