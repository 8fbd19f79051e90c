import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getRunRoute } from '@/app/api/runs/[id]/route';
import { GET as getSharedViewRoute } from '@/app/api/runs/share/[shareId]/view/route';
import { readEnv } from '@/lib/config';
import { closeDb } from '@/lib/db/client';
import { keptReads } from '@/lib/runs/kept-reads';
import { readsAhead, type ReadsAhead } from '@/lib/runs/reads-ahead';
import { listenRunChanges } from '@/lib/runs/store/changes';
import { stopQueue } from '@/lib/runs/queue';
import { executeRun } from '@/lib/runs/executor';
import { createRun, rerun } from '@/lib/runs/service';
import { readRunState } from '@/lib/runs/store/runs';
import { verifyRun } from '@/lib/runs/verify';
import { newNonce, pageContentSecurityPolicy } from '@/lib/security/headers';
import { runToSuccess } from '../support/runs';

/**
 * The kept reads in front of the web server (lib/runs/kept-reads.ts), over real HTTP and real runs. Behind them
 * stands what Next.js does for these reads: the run record's and the shared view's real routes, and a page (a
 * run's, a share link's) that, as proxy.ts and Next.js make it, carries a fresh nonce in its CSP header and on
 * its scripts, and shows the run's state.
 */
const renders = { page: 0, json: 0 };
/** Renders per path: other test files' runs end too, and reads ahead take them up. */
const rendersOf = new Map<string, number>();
let setCookie = false;

async function nextJs(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url!, 'http://127.0.0.1');
  rendersOf.set(url.pathname, (rendersOf.get(url.pathname) ?? 0) + 1);
  const request = new Request(url, { headers: req.headers as Record<string, string> });
  const record = /^\/api\/runs\/([^/]+)$/.exec(url.pathname);
  const shared = /^\/api\/runs\/share\/([^/]+)\/view$/.exec(url.pathname);
  if (record || shared) {
    renders.json++;
    const answer = record
      ? await getRunRoute(request, { params: Promise.resolve({ id: record[1] }) })
      : await getSharedViewRoute(request, { params: Promise.resolve({ shareId: shared![1] }) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
    return;
  }
  const page = /^\/(runs|r)\/([^/]+)$/.exec(url.pathname);
  if (!page) return void res.writeHead(404).end();
  renders.page++;
  const nonce = newNonce();
  const state = await readRunState(page[1] === 'r' ? { shareId: page[2] } : { id: page[2] });
  res.setHeader('content-security-policy', pageContentSecurityPolicy(nonce));
  res.setHeader('content-type', 'text/html; charset=utf-8');
  if (setCookie) res.setHeader('set-cookie', 'seen=1');
  res.write(`<!DOCTYPE html><html><head><script src="/_next/static/a.js" nonce="${nonce}" async></script></head>`);
  await new Promise((r) => setTimeout(r, 5)); // streamed, as React streams a page
  res.end(`<body><p id="state">${state?.state}</p><script nonce="${nonce}">self.__next_f.push([1])</script></body></html>`);
}

function serve(env = readEnv(), wrap = (h: Handler) => h): Promise<{ base: string; close: () => Promise<void> }> {
  const handler = wrap(keptReads(nextJs, { env }));
  const server = http.createServer((req, res) => void handler(req, res));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

/** A GET with these headers as sent (fetch would set its own Host); its response headers. */
function get(url: string, headers: Record<string, string>): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) =>
    http
      .get(url, { headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      })
      .on('error', reject),
  );
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;
const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? '')?.[1];

let server: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  server = await serve();
});
afterAll(async () => {
  await server.close();
  await stopQueue();
  await closeDb();
});

describe('kept reads of finished runs', () => {
  it('a page is rendered once per run state, and every answer carries a nonce of its own, in its header and on its scripts', async () => {
    const run = await runToSuccess({ method: 'kg-rag', question: 'Which drugs treat gout?' });
    const before = renders.page;
    const first = await fetch(`${server.base}/runs/${run.id}`);
    const firstHtml = await first.text();
    expect(first.headers.get('x-hopscope-read')).toBeNull();
    const firstNonce = nonceOf(first.headers.get('content-security-policy'))!;

    const nonces = new Set([firstNonce]);
    for (let i = 0; i < 3; i++) {
      const again = await fetch(`${server.base}/runs/${run.id}`);
      expect(again.headers.get('x-hopscope-read')).toBe('kept');
      expect(again.headers.get('content-encoding')).toBe('gzip'); // fetch asks for gzip and decodes it
      const nonce = nonceOf(again.headers.get('content-security-policy'))!;
      const html = await again.text();
      expect(html.match(/nonce="([^"]+)"/g)).toEqual([`nonce="${nonce}"`, `nonce="${nonce}"`]);
      expect(html).not.toContain(firstNonce);
      expect(html.replaceAll(nonce, 'N')).toBe(firstHtml.replaceAll(firstNonce, 'N'));
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(4);
    expect(renders.page - before).toBe(1);

    // A verification is a new state: rendered again, showing it.
    await verifyRun(run.id);
    const verified = await fetch(`${server.base}/runs/${run.id}`);
    expect(verified.headers.get('x-hopscope-read')).toBeNull();
    expect(await verified.text()).toContain((await readRunState({ id: run.id }))!.state);
    expect(renders.page - before).toBe(2);
    expect((await fetch(`${server.base}/runs/${run.id}`)).headers.get('x-hopscope-read')).toBe('kept');
  });

  it('a burst of reads of one run renders it once', async () => {
    const run = await runToSuccess({ method: 'direct', question: 'Which genes are associated with asthma?' });
    const before = renders.page;
    const answers = await Promise.all(Array.from({ length: 12 }, () => fetch(`${server.base}/runs/${run.id}`).then(async (r) => [r.status, await r.text()])));
    expect(answers.every(([status]) => status === 200)).toBe(true);
    expect(renders.page - before).toBe(1);
  });

  it("a run's record is kept as its route sent it, and revalidates to a 304", async () => {
    const run = await runToSuccess({ method: 'direct', question: 'Which drugs treat gout?' });
    const before = renders.json;
    const first = await fetch(`${server.base}/api/runs/${run.id}`);
    const body = await first.json();
    const kept = await fetch(`${server.base}/api/runs/${run.id}`);
    expect(kept.headers.get('x-hopscope-read')).toBe('kept');
    expect(kept.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await kept.json()).toEqual(body);
    const revalidated = await fetch(`${server.base}/api/runs/${run.id}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
    expect(renders.json - before).toBe(1);
  });

  it('live runs, navigations, answers that set a cookie and other hosts always reach the server', async () => {
    const { id: queued } = await createRun({ method: 'direct', question: 'Which drugs treat gout?', backend: 'offline' }, { enqueue: false });
    const finished = await runToSuccess({ method: 'direct', question: 'Which drugs treat gout?' });
    const rendered = async (url: string, headers: Record<string, string> = {}) => {
      const before = renders.page + renders.json;
      for (let i = 0; i < 2; i++) expect((await get(`${server.base}${url}`, headers))['x-hopscope-read']).toBeUndefined();
      return renders.page + renders.json - before;
    };
    expect(await rendered(`/runs/${queued}`)).toBe(2);
    expect(await rendered(`/api/runs/${queued}`)).toBe(2);
    expect(await rendered(`/runs/${finished.id}`, { rsc: '1' })).toBe(2);
    expect(await rendered(`/runs/${finished.id}?_rsc=abc`)).toBe(2);
    expect(await rendered(`/runs/${finished.id}`, { host: 'rebound.example' })).toBe(2);
    setCookie = true;
    try {
      expect(await rendered(`/runs/${finished.id}?cookie`)).toBe(2);
    } finally {
      setCookie = false;
    }
  });

  it('with sign-in on, nothing is kept: a page names its viewer and a run its owner', async () => {
    const signedIn = await serve(readEnv({ ...process.env, AUTH_SECRET: 'x'.repeat(32) }));
    try {
      const run = await runToSuccess({ method: 'direct', question: 'Which drugs treat gout?' });
      const before = renders.page;
      for (let i = 0; i < 2; i++) expect((await fetch(`${signedIn.base}/runs/${run.id}`)).headers.get('x-hopscope-read')).toBeNull();
      expect(renders.page - before).toBe(2);
    } finally {
      await signedIn.close();
    }
  });
});

/** A server that reads ahead the runs that change, as scripts/web.ts does; `front` stands between it and the kept reads. */
async function serveAhead(front: (kept: Handler) => Handler = (kept) => kept) {
  let ahead: ReadsAhead | null = null;
  let inner: Handler | null = null;
  const { base, close } = await serve(readEnv(), (kept) => {
    inner = front(kept);
    return (req, res) => ahead!.handler(req, res);
  });
  ahead = readsAhead(inner!, { origin: base, host: '127.0.0.1' });
  const stop = await listenRunChanges((runs) => ahead!.add(runs));
  return {
    base,
    close: async () => {
      await stop();
      await ahead!.idle();
      await close();
    },
  };
}

describe('reads made ahead', () => {
  it('a run that ends, and again once it is verified, is read ahead: its first reader finds its page and record kept', async () => {
    let wait = true;
    const { base, close } = await serveAhead((kept) => async (req, res) => {
      // A reader's request in flight: nothing is read ahead until it is answered.
      if (req.url !== '/wait') return kept(req, res);
      while (wait) await new Promise((r) => setTimeout(r, 10));
      res.writeHead(204).end();
    });
    try {
      const waiting = fetch(`${base}/wait`);
      const run = await runToSuccess({ method: 'direct', question: 'Which drugs treat gout?' });
      const page = `/runs/${run.id}`;
      const record = `/api/runs/${run.id}`;
      await new Promise((r) => setTimeout(r, 300));
      expect(rendersOf.get(page)).toBeUndefined();
      wait = false;
      await waiting;
      await vi.waitFor(() => expect(rendersOf.get(record)).toBe(1), { timeout: 10_000 });
      expect([rendersOf.get(`${record}/view`), rendersOf.get(page)]).toEqual([1, 1]);
      for (const url of [page, record]) expect((await fetch(`${base}${url}`)).headers.get('x-hopscope-read')).toBe('kept');

      // A verification changes what its reads show: read ahead again, before anyone asks.
      await verifyRun(run.id);
      await vi.waitFor(() => expect(rendersOf.get(record)).toBe(2), { timeout: 10_000 });
      const verified = await fetch(`${base}${page}`);
      expect(verified.headers.get('x-hopscope-read')).toBe('kept');
      expect(await verified.text()).toContain((await readRunState({ id: run.id }))!.state);
      expect([rendersOf.get(page), rendersOf.get(record)]).toEqual([2, 2]);
    } finally {
      await close();
    }
  });

  it("a run's share link is read ahead with it: its first reader finds the permalink and its view kept, again once a rerun of it ends", async () => {
    const { base, close } = await serveAhead();
    try {
      const run = await runToSuccess({ method: 'direct', question: 'Which genes are associated with asthma?' });
      const permalink = `/r/${run.shareId}`;
      const sharedView = `/api/runs/share/${run.shareId}/view`;
      await vi.waitFor(() => expect(rendersOf.get(permalink)).toBe(1), { timeout: 10_000 });
      expect(rendersOf.get(sharedView)).toBe(1);
      for (const url of [sharedView, permalink]) expect((await fetch(`${base}${url}`)).headers.get('x-hopscope-read')).toBe('kept');

      // A rerun's end changes the parent's reads (its view lists its reruns): the parent's share link is read again.
      const child = await rerun(run.id, { method: 'kg-rag' }, { enqueue: false });
      await executeRun(child.id);
      await vi.waitFor(() => expect(rendersOf.get(permalink)).toBe(2), { timeout: 10_000 });
      await vi.waitFor(() => expect(rendersOf.get(`/r/${child.shareId}`)).toBe(1), { timeout: 10_000 });
      const view = await fetch(`${base}${sharedView}`);
      expect(view.headers.get('x-hopscope-read')).toBe('kept');
      expect(((await view.json()) as { children: { shareId: string }[] }).children.map((c) => c.shareId)).toEqual([child.shareId]);
      expect(rendersOf.get(sharedView)).toBe(2);
    } finally {
      await close();
    }
  });

  it('runs ending one after another are read once they pause; a lone run at once', async () => {
    const asked: string[] = [];
    const handler: Handler = (req, res) => {
      asked.push(req.url!);
      res.writeHead(404).end();
    };
    const { base, close } = await serve(readEnv(), () => (req, res) => ahead.handler(req, res));
    const ahead = readsAhead(handler, { origin: base, host: '127.0.0.1' });
    const run = (id: string) => ({ id, shareId: `${id}-share` });
    try {
      ahead.add([run('lone')]);
      await vi.waitFor(() => expect(asked).toContain('/r/lone-share'), { timeout: 10_000 });
      await ahead.idle();
      asked.length = 0;
      ahead.add([run('first')]);
      ahead.add([run('second')]);
      await new Promise((r) => setTimeout(r, 300));
      expect(asked).toEqual([]);
      await vi.waitFor(() => expect(asked).toContain('/r/second-share'), { timeout: 10_000 });
      expect(asked).toEqual(
        ['first', 'second'].flatMap((id) => [`/api/runs/${id}/view`, `/runs/${id}`, `/api/runs/${id}`, `/api/runs/share/${id}-share/view`, `/r/${id}-share`]),
      );
    } finally {
      await ahead.idle();
      await close();
    }
  });
});
