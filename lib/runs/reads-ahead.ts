import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { ChangedRun } from './store/changes';

/**
 * A finished run's reads made ahead, for kept reads (./kept-reads.ts): when a run ends or changes (a
 * verification, a rerun ending), the web server asks itself for the run's view, page and record, then its
 * share link's view and page (a permalink's first reader waits for no render either), while no
 * request of anyone else's is in flight, so the run's first reader finds them kept instead of waiting for
 * Next.js's render (60, 23 and 18 ms of CPU; under a burst, a wait behind everything else the server does).
 * They go through the server's front door as any reader's request would: the same guard, the same render,
 * a fresh nonce on every answer. Only where kept reads are (no sign-in: a page then names its viewer).
 * Evaluations' runs do not announce themselves (thousands, read as aggregates).
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** How long the server has had no request before a read is made ahead: a reader's requests come first. */
const QUIET_MS = 50;
/** While runs end one after another (the workers busy), reads ahead wait for a pause this long: they would take the runs' CPU. */
const PAUSE_MS = 1_000;
/** Runs waiting to be read ahead at most (the oldest go first: their first read pays its render as before). */
const MAX_WAITING = 64;

export interface ReadsAhead {
  /** `handler` with the requests it serves counted (the server is quiet when none is in flight). */
  handler: Handler;
  /** Reads these runs' view, page and record, and their share links' view and page, ahead once the server is quiet. */
  add(runs: ChangedRun[]): void;
  /** Resolves when every run added so far has been read (tests). */
  idle(): Promise<void>;
}

/** Reads ahead through `handler` (kept reads in front of Next.js), asking the server at `origin` with this Host. */
export function readsAhead(handler: Handler, { origin, host }: { origin: string; host: string }): ReadsAhead {
  /** Share ids by run id, in the order the runs are read. */
  const waiting = new Map<string, string>();
  let inFlight = 0;
  let lastSeen = 0;
  let lastAdded = -Infinity;
  /** The last change came within PAUSE_MS of the one before: runs are ending one after another. */
  let streak = false;
  let pumping: Promise<void> | null = null;

  const quiet = async () => {
    const busy = () => inFlight > 0 || performance.now() - lastSeen < QUIET_MS || (streak && performance.now() - lastAdded < PAUSE_MS);
    while (busy()) await new Promise((r) => setTimeout(r, QUIET_MS));
  };
  const pump = async () => {
    for (const [id, shareId] of waiting) {
      waiting.delete(id);
      // The view first: a run page open while the run went on asks for it within a second of its end. The share
      // link's reads last: kept under its own (unguessable) address, answered only to those who hold it.
      for (const path of [`/api/runs/${id}/view`, `/runs/${id}`, `/api/runs/${id}`, `/api/runs/share/${shareId}/view`, `/r/${shareId}`]) {
        await quiet();
        await get(`${origin}${path}`, host);
      }
    }
    pumping = null;
  };
  return {
    handler: (req, res) => {
      inFlight++;
      lastSeen = performance.now();
      res.once('close', () => {
        inFlight--;
        lastSeen = performance.now();
      });
      return handler(req, res);
    },
    add(runs) {
      streak = performance.now() - lastAdded < PAUSE_MS;
      lastAdded = performance.now();
      for (const { id, shareId } of runs) {
        waiting.delete(id); // to the back: the most recent change goes last
        waiting.set(id, shareId);
      }
      for (const id of waiting.keys()) {
        if (waiting.size <= MAX_WAITING) break;
        waiting.delete(id);
      }
      pumping ??= pump();
    },
    idle: async () => {
      while (pumping) await pumping;
    },
  };
}

/** A read ahead that takes longer than this is given up (the next one goes on). */
const GET_TIMEOUT_MS = 30_000;

/** A GET whose answer is read and dropped (what is kept is kept by the server); never rejects. */
function get(url: string, host: string): Promise<void> {
  return new Promise((resolve) => {
    const req = http
      .get(url, { headers: { host, 'accept-encoding': 'gzip' }, timeout: GET_TIMEOUT_MS }, (res) => {
        res.on('end', resolve).on('error', () => resolve());
        res.resume();
      })
      .on('timeout', () => req.destroy())
      .on('error', () => resolve());
  });
}
