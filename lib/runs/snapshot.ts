import { createHash } from 'node:crypto';
import { readRunState } from './store/runs';

/**
 * A finished run's reads (its record, its view, its permalink) never change
 * unless something shown with them does: a verification added, a rerun made
 * or advancing, the run itself rewritten. Each read is answered with an ETag
 * naming that state (one small query), a client that holds it gets a 304, and
 * the answer itself is kept per run and state, so the trace is read and
 * serialised once, not per request. Live runs are never cached.
 */
export interface RunState {
  id: string;
  /** The ETag of the run's finished state; null while the run is queued or running. */
  tag: string | null;
}

/** Snapshots kept at most (the most recently used stay): a bound, so a long-lived server does not grow with every run read. */
const MAX_SNAPSHOTS = 200;
const snapshots = new Map<string, Snapshot<unknown>>();

interface Snapshot<T> {
  tag: string;
  /** Made once: requests that arrive while it is being made wait for the same build (a burst of reads of a run builds it once). */
  value: Promise<T>;
  /** Its JSON as sent, made on first use. */
  body?: Uint8Array<ArrayBuffer>;
}

/** The run's state; null when there is no such run. */
export async function runState(where: { id: string } | { shareId: string }): Promise<RunState | null> {
  const row = await readRunState(where);
  return row && { id: row.id, tag: stateTag(row) };
}

/** The ETag of a run's state (lib/runs/store/runs.ts); null while the run is queued or running. */
export function stateTag(row: { status: string; state: string }): string | null {
  const live = row.status === 'queued' || row.status === 'running';
  return live ? null : `"${createHash('sha1').update(row.state).digest('base64url')}"`;
}

/**
 * One of a run's reads (`kind`: record, view, shared view) as `build` makes
 * it: for a finished run, the one kept for its current state (made once per
 * state); for a live one, made afresh. `tag` is null for a live run.
 */
export async function runSnapshot<T>(
  kind: string,
  where: { id: string } | { shareId: string },
  build: () => Promise<T>,
  known?: RunState | null,
): Promise<{ tag: string | null; snapshot: Snapshot<T> | null; value: T }> {
  const state = known === undefined ? await runState(where) : known;
  // No run (build says so, as a not-found error), or a live one: made fresh every time.
  if (!state?.tag) return { tag: null, snapshot: null, value: await build() };
  const key = `${kind}:${state.id}`;
  let kept = snapshots.get(key) as Snapshot<T> | undefined;
  if (kept?.tag !== state.tag) {
    const made: Snapshot<T> = { tag: state.tag, value: build() };
    // A build that failed is not kept: the next request tries again.
    made.value.catch(() => {
      if (snapshots.get(key) === made) snapshots.delete(key);
    });
    kept = made;
    if (snapshots.size >= MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value!);
  }
  // Re-inserted: the map's order is the order of use.
  snapshots.delete(key);
  snapshots.set(key, kept);
  return { tag: state.tag, snapshot: kept, value: await kept.value };
}

/**
 * A JSON answer for one of a run's reads: 304 when the request holds the current state's ETag, else the kept
 * snapshot's JSON, encoded once (a large run's record is hundreds of KB). Sent as it is: Next.js drops a route
 * handler's Content-Encoding (next/dist/server/send-response.js), so a body gzipped here would reach clients undecoded.
 */
export async function runResponse(
  request: Request,
  kind: string,
  where: { id: string } | { shareId: string },
  build: () => Promise<unknown>,
): Promise<Response> {
  const state = await runState(where);
  // Revalidation costs the state query alone: nothing is read or sent again.
  if (state?.tag && matches(request.headers.get('if-none-match'), state.tag)) return new Response(null, { status: 304, headers: cacheHeaders(state.tag) });
  const { tag, snapshot, value } = await runSnapshot(kind, where, build, state);
  if (!tag || !snapshot) return Response.json(value, { headers: { 'cache-control': 'no-store' } });
  snapshot.body ??= new Uint8Array(Buffer.from(JSON.stringify(value)));
  return new Response(snapshot.body, { headers: { ...cacheHeaders(tag), 'content-type': 'application/json' } });
}

/** Kept by the browser, but revalidated on every use (a rerun or verification changes what it shows). */
const cacheHeaders = (tag: string) => ({ etag: tag, 'cache-control': 'private, no-cache' });

/** Whether an If-None-Match header names this ETag (or any). */
export function matches(header: string | null | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === tag || v === `W/${tag}`;
  });
}
