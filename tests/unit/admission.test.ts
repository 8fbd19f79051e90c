import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { admission } from '@/lib/api/admission';

/** A real server whose inner handler holds every request until the test lets it answer. */
function serve(slots: number, writeMaxWaitMs?: number) {
  const inside: { label: string; res: ServerResponse }[] = [];
  const admitted: string[] = [];
  let notify = () => undefined as void;
  const handle = admission(
    (req: IncomingMessage, res: ServerResponse) => {
      const label = `${req.method} ${req.url}`;
      admitted.push(label);
      inside.push({ label, res });
      notify();
    },
    { slots, writeMaxWaitMs },
  );
  const server = http.createServer((req, res) => void handle(req, res));
  const listening = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  const until = async (probe: () => boolean) => {
    while (!probe()) await new Promise<void>((r) => (notify = r));
  };
  const answer = (label: string) => {
    const i = inside.findIndex((x) => x.label === label);
    inside.splice(i, 1)[0].res.end(label);
  };
  return { server, listening, inside, admitted, until, answer };
}

let close: (() => void) | null = null;
afterEach(() => close?.());

describe('admission to Next.js', () => {
  it('hands on at most its slots at once, and reads before the writes that waited longer', async () => {
    const s = serve(2);
    close = () => s.server.close();
    const base = await s.listening;
    const agent = new http.Agent({ keepAlive: false });
    const send = (method: string, path: string) =>
      new Promise<string>((resolve, reject) =>
        http
          .request(`${base}${path}`, { method, agent }, (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve(body));
          })
          .on('error', reject)
          .end(),
      );
    const answers = [send('POST', '/w1'), send('POST', '/w2')];
    await s.until(() => s.inside.length === 2);
    answers.push(send('POST', '/w3'));
    await new Promise((r) => setTimeout(r, 100));
    answers.push(send('GET', '/r1'), send('GET', '/r2'));
    await new Promise((r) => setTimeout(r, 100));
    expect(s.inside.map((x) => x.label).sort()).toEqual(['POST /w1', 'POST /w2']);
    // The two reads (in whichever order they arrived) before the write that waited longer.
    s.answer('POST /w1');
    await s.until(() => s.admitted.length === 3);
    s.answer('POST /w2');
    await s.until(() => s.admitted.length === 4);
    expect(s.admitted.slice(2).sort()).toEqual(['GET /r1', 'GET /r2']);
    s.answer('GET /r1');
    await s.until(() => s.admitted.length === 5);
    expect(s.admitted[4]).toBe('POST /w3');
    s.answer('GET /r2');
    s.answer('POST /w3');
    expect(await Promise.all(answers)).toEqual(['POST /w1', 'POST /w2', 'POST /w3', 'GET /r1', 'GET /r2']);
  });

  it('lets a write in once it has waited its longest, whatever reads wait', async () => {
    const s = serve(1, 150);
    close = () => s.server.close();
    const base = await s.listening;
    const first = fetch(`${base}/first`);
    await s.until(() => s.inside.length === 1);
    const write = fetch(`${base}/w`, { method: 'POST' });
    await new Promise((r) => setTimeout(r, 300));
    const read = fetch(`${base}/r`);
    await new Promise((r) => setTimeout(r, 100));
    s.answer('GET /first');
    await s.until(() => s.admitted.length === 2);
    expect(s.admitted[1]).toBe('POST /w');
    s.answer('POST /w');
    await s.until(() => s.admitted.length === 3);
    s.answer('GET /r');
    await Promise.all([first, write, read].map(async (r) => (await r).text()));
  });

  it('does not hand on a request whose client left while it waited', async () => {
    const s = serve(1);
    close = () => s.server.close();
    const base = await s.listening;
    const first = fetch(`${base}/first`);
    await s.until(() => s.inside.length === 1);
    const leaving = new AbortController();
    const gone = fetch(`${base}/gone`, { signal: leaving.signal }).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    leaving.abort();
    await gone;
    await new Promise((r) => setTimeout(r, 100));
    const later = fetch(`${base}/later`);
    s.answer('GET /first');
    await (await first).text();
    await s.until(() => s.inside.length === 1);
    s.answer('GET /later');
    expect(await (await later).text()).toBe('GET /later');
    expect(s.admitted).toEqual(['GET /first', 'GET /later']);
  });
});
