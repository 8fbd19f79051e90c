import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { gzipAround, gzipWith, joinWith, type GzipAround } from '@/lib/base/gzip-around';
import type { HopscopeEnv } from '@/lib/config';
import { guardRequest } from '@/lib/security/request-guard';
import { newNonce } from '@/lib/security/headers';
import { readRunStates, type RunStateRow, type RunWhere } from './store/runs';
import { matches, stateTag } from './snapshot';

/**
 * A finished run's page and JSON answers, kept as the server sent them, in
 * front of Next.js (scripts/web.ts). Next.js's own work per request (proxy,
 * routing, React's render and stream) is 13–38 ms of CPU for these reads; a
 * kept answer is one batched state query and a write. The first request for a
 * run's state goes through Next.js as before and its response is kept; later
 * ones get it while the run's state (lib/runs/snapshot.ts) is unchanged.
 *
 * - A page carries the CSP nonce of the request that rendered it: each answer
 *   gets a fresh one in its place (the header's and the scripts'), so no two
 *   responses share a nonce, as if each had been rendered. Its gzip is made
 *   once around the nonce's places (lib/base/gzip-around.ts).
 * - Only without sign-in: with it, a page names its viewer and a run its
 *   owner, so every read goes through Next.js and its checks (scripts/web.ts).
 * - Only plain GETs a browser or a tool sends for a document or data: no RSC
 *   navigation, prefetch or action headers; the host guard of proxy.ts first.
 * - Live runs, non-200 answers and answers that set a cookie are never kept.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

interface Read {
  pattern: RegExp;
  /** An HTML page (a nonce to replace) or a JSON answer. */
  page: boolean;
  where: (key: string) => RunWhere;
}

/** The reads kept: a run's page and permalink, its record, its view, its shared view. */
const READS: Read[] = [
  { pattern: /^\/runs\/([\w-]{1,64})$/, page: true, where: (id) => ({ id }) },
  { pattern: /^\/r\/([\w-]{1,64})$/, page: true, where: (shareId) => ({ shareId }) },
  { pattern: /^\/api\/runs\/share\/([\w-]{1,64})\/view$/, page: false, where: (shareId) => ({ shareId }) },
  { pattern: /^\/api\/runs\/([\w-]{1,64})(?:\/view)?$/, page: false, where: (id) => ({ id }) },
];

/** Headers that make a GET something other than a plain read (Next.js's client navigations, prefetches, server actions). */
const NOT_PLAIN = ['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'next-action', 'next-url'];
/** Response headers that belong to one transfer, not to the answer. */
const PER_TRANSFER = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

interface Kept {
  tag: string;
  headers: OutgoingHttpHeaders;
  /** A page: its bytes around the nonce (and gzipped once around it), and the nonce they were rendered with. */
  page?: GzipAround;
  nonce?: string;
  /** A JSON answer: its bytes, and gzipped once. */
  body?: Buffer;
  gzip?: Buffer;
  bytes: number;
}

export interface KeptReadsOptions {
  env: HopscopeEnv;
  /** The most bytes kept (the least recently used go first). */
  maxBytes?: number;
}

/** A request handler that answers kept reads itself and hands everything else to `handle` (Next.js's). */
export function keptReads(handle: Handler, { env, maxBytes = 64 * 1024 * 1024 }: KeptReadsOptions): Handler {
  const kept = new Map<string, Kept>();
  const making = new Map<string, { tag: string; made: Promise<Kept | null> }>();
  const states = batchedStates();
  let bytes = 0;

  const keep = (key: string, entry: Kept) => {
    drop(key);
    kept.set(key, entry);
    bytes += entry.bytes;
    for (const [old, e] of kept) {
      if (bytes <= maxBytes) break;
      kept.delete(old);
      bytes -= e.bytes;
    }
  };
  const drop = (key: string) => {
    const old = kept.get(key);
    if (old) bytes -= old.bytes;
    kept.delete(key);
  };

  return async (req, res) => {
    const read = plainRead(req, env);
    if (!read) return handle(req, res);
    let row: RunStateRow | null;
    try {
      row = await states.load(read.where);
    } catch {
      return handle(req, res); // the database is away: Next.js answers (503)
    }
    const tag = row && stateTag(row);
    if (!tag) return handle(req, res); // no such run (a 404), or a live one
    const key = `${read.page ? 'page' : 'json'} ${req.url}`;
    const entry = kept.get(key);
    if (entry?.tag === tag) {
      // Re-inserted: the map's order is the order of use.
      kept.delete(key);
      kept.set(key, entry);
      return send(req, res, entry);
    }
    // A burst of requests for one run's state: the first goes to Next.js, the others wait for what it sends.
    const pending = making.get(key);
    if (pending?.tag === tag) {
      const made = await pending.made;
      return made ? send(req, res, made) : handle(req, res);
    }
    drop(key);
    const made = capture(req, res, handle)
      .then((answer) => answer && toKept(answer, tag, read.page))
      .catch(() => null);
    making.set(key, { tag, made });
    const entryMade = await made;
    if (making.get(key)?.made === made) making.delete(key);
    if (entryMade) keep(key, entryMade);
  };
}

/** The kept read a request asks for, or null when it must go to Next.js. */
function plainRead(req: IncomingMessage, env: HopscopeEnv): { page: boolean; where: RunWhere } | null {
  if (req.method !== 'GET' || env.AUTH_SECRET || !req.url) return null;
  if (NOT_PLAIN.some((h) => req.headers[h] !== undefined)) return null;
  const [pathname, query = ''] = req.url.split('?', 2);
  if (new URLSearchParams(query).has('_rsc')) return null;
  const read = READS.find((r) => r.pattern.test(pathname));
  if (!read) return null;
  // proxy.ts's guard: a GET is refused only for a host this server does not answer to, and then Next.js says so.
  if (guardRequest({ method: 'GET', pathname, headers: new Headers({ host: req.headers.host ?? '' }) }, env)) return null;
  return { page: read.page, where: read.where(read.pattern.exec(pathname)![1]) };
}

function send(req: IncomingMessage, res: ServerResponse, entry: Kept) {
  const headers: OutgoingHttpHeaders = { ...entry.headers, 'x-hopscope-read': 'kept' };
  if (!entry.page && matches(req.headers['if-none-match'], entry.tag)) {
    res.writeHead(304, headers).end();
    return;
  }
  let body: Buffer;
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  if (entry.page) {
    const nonce = newNonce();
    // The CSP, and any other header Next.js put the nonce in.
    const renonce = (value: string) => value.replaceAll(entry.nonce!, nonce);
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value === 'string') headers[name] = renonce(value);
      else if (Array.isArray(value)) headers[name] = value.map(renonce);
    }
    body = gzip ? gzipWith(entry.page, nonce) : joinWith(entry.page, nonce);
  } else {
    body = gzip ? entry.gzip! : entry.body!;
  }
  if (gzip) headers['content-encoding'] = 'gzip';
  headers['content-length'] = body.length;
  res.writeHead(200, headers).end(body);
}

interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/**
 * Hands the request to Next.js and keeps a copy of what it sends. The request loses its
 * Accept-Encoding, so the copy is plain bytes (this one answer goes out uncompressed).
 */
function capture(req: IncomingMessage, res: ServerResponse, handle: Handler): Promise<Answer | null> {
  delete req.headers['accept-encoding'];
  const chunks: Buffer[] = [];
  const take = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  };
  const { write, end, writeHead } = res;
  const headersGiven: OutgoingHttpHeaders = {};
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    take(chunk, rest[0]);
    return write.apply(this, [chunk, ...rest] as Parameters<typeof write>);
  } as typeof write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') take(chunk, rest[0]);
    return end.apply(this, [chunk, ...rest] as Parameters<typeof end>);
  } as typeof end;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const given = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null);
    if (given && !Array.isArray(given)) Object.assign(headersGiven, given);
    return writeHead.apply(this, args as Parameters<typeof writeHead>);
  } as typeof writeHead;
  return new Promise((resolve, reject) => {
    res.once('finish', () => resolve({ status: res.statusCode, headers: { ...res.getHeaders(), ...lower(headersGiven) }, body: Buffer.concat(chunks) }));
    res.once('close', () => resolve(null)); // closed before it finished: nothing to keep
    Promise.resolve(handle(req, res)).catch(reject);
  });
}

/** What of an answer is kept for its run's state, or null when it may not be. */
function toKept(answer: Answer, tag: string, page: boolean): Kept | null {
  if (answer.status !== 200 || answer.headers['set-cookie'] !== undefined) return null;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(answer.headers)) if (!PER_TRANSFER.has(name) && value !== undefined) headers[name] = value;
  headers.vary = [headers.vary, 'Accept-Encoding'].filter(Boolean).join(', ');
  if (!page) {
    // Next.js's route answered for this state (its ETag says which), or it is not kept.
    if (headers.etag !== tag) return null;
    const gzip = gzipSync(answer.body);
    return { tag, headers, body: answer.body, gzip, bytes: answer.body.length + gzip.length };
  }
  const nonce = /'nonce-([^']+)'/.exec(String(headers['content-security-policy'] ?? ''))?.[1];
  if (!nonce) return null;
  const parts = split(answer.body, Buffer.from(nonce));
  // A page whose scripts do not carry the nonce is not what proxy.ts and Next.js make: not kept.
  if (parts.length < 2 || Buffer.byteLength(nonce) !== Buffer.byteLength(newNonce())) return null;
  const around = gzipAround(parts, Buffer.byteLength(nonce));
  return { tag, headers, page: around, nonce, bytes: answer.body.length + around.parts.reduce((n, p) => n + p.length, 0) };
}

function split(body: Buffer, at: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = body.indexOf(at); i >= 0; i = body.indexOf(at, from)) {
    parts.push(body.subarray(from, i));
    from = i + at.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

function lower(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Whether an Accept-Encoding header takes gzip (not refused with q=0). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (!q || Number(q.slice(2)) > 0);
  });
}

/**
 * Run states read in batches: a request waits for the next query sent after it arrived (never one
 * already in flight, which may predate a change it must see), and every request waiting then shares it.
 */
function batchedStates() {
  let waiting: { where: RunWhere; resolve: (row: RunStateRow | null) => void; reject: (e: unknown) => void }[] = [];
  let querying = false;
  const flush = async () => {
    querying = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        const rows = await readRunStates(batch.map((w) => w.where));
        batch.forEach((w, i) => w.resolve(rows[i]));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    querying = false;
  };
  return {
    load: (where: RunWhere) =>
      new Promise<RunStateRow | null>((resolve, reject) => {
        waiting.push({ where, resolve, reject });
        if (!querying) void flush();
      }),
  };
}
