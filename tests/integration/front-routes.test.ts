import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as submitRun } from '@/app/api/runs/route';
import { frontRoutes } from '@/lib/api/front-routes';
import { MAX_JSON_BODY_BYTES } from '@/lib/api/input';
import { readEnv, type HopscopeEnv } from '@/lib/config';
import { closeDb } from '@/lib/db/client';
import { stopQueue } from '@/lib/runs/queue';
import { readRunState } from '@/lib/runs/store/runs';
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS } from '@/lib/security/headers';

/**
 * Run submissions answered by the web server in front of Next.js (lib/api/front-routes.ts, scripts/web.ts), over
 * real HTTP into the real route and database. Behind them a stand-in for Next.js that only says it was asked.
 */
let toNext: string[] = [];

function nextJs(req: IncomingMessage, res: ServerResponse) {
  toNext.push(`${req.method} ${req.url}`);
  res.writeHead(418, { 'content-type': 'text/plain' }).end('next.js');
}

function serve(env: HopscopeEnv): Promise<{ base: string; close: () => Promise<void> }> {
  const handler = frontRoutes(nextJs, { 'POST /api/runs': submitRun }, { env });
  const server = http.createServer((req, res) => void handler(req, res));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

const submission = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

function expectApiHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY);
  for (const [name, value] of Object.entries(FIXED_SECURITY_HEADERS)) expect(res.headers.get(name)).toBe(value);
}

let server: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  server = await serve(readEnv());
});
afterAll(async () => {
  await server.close();
  await stopQueue();
  await closeDb();
});

describe('run submissions in front of Next.js', () => {
  it('stores and queues the run, with the security headers of every API answer', async () => {
    toNext = [];
    const res = await fetch(`${server.base}/api/runs`, submission({ method: 'direct', question: 'Which drugs treat gout?', backend: 'offline' }));
    expect(res.status).toBe(201);
    expectApiHeaders(res);
    const { id, shareId } = (await res.json()) as { id: string; shareId: string };
    expect(shareId).toMatch(/^[\w-]{16,}$/);
    expect((await readRunState({ id }))?.status).toMatch(/queued|running|succeeded/);
    expect(toNext).toEqual([]);
  });

  it("answers the route's errors as the route does: invalid input 400, a body over the limit 413", async () => {
    const invalid = await fetch(`${server.base}/api/runs`, submission({ method: 'no-such-method', question: 'Which drugs treat gout?' }));
    expect(invalid.status).toBe(400);
    expectApiHeaders(invalid);
    expect(((await invalid.json()) as { error: string }).error).toMatch(/method/);
    const nul = await fetch(`${server.base}/api/runs`, submission({ method: 'direct', question: 'gout\u0000' }));
    expect(nul.status).toBe(400);
    const large = await fetch(`${server.base}/api/runs`, submission({ method: 'direct', question: 'x'.repeat(MAX_JSON_BODY_BYTES + 1) }));
    expect(large.status).toBe(413);
    expect(toNext).toEqual([]);
  });

  it('leaves a request the guard refuses, other methods and other paths to Next.js', async () => {
    toNext = [];
    const crossOrigin = await fetch(
      `${server.base}/api/runs`,
      submission({ method: 'direct', question: 'Which drugs treat gout?' }, { origin: 'http://evil.example' }),
    );
    expect(crossOrigin.status).toBe(418);
    const notJson = await fetch(`${server.base}/api/runs`, submission('method=direct', { 'content-type': 'application/x-www-form-urlencoded' }));
    expect(notJson.status).toBe(418);
    expect((await fetch(`${server.base}/api/runs?limit=5`)).status).toBe(418);
    expect((await fetch(`${server.base}/api/runs/x/rerun`, submission({}))).status).toBe(418);
    expect(toNext).toEqual(['POST /api/runs', 'POST /api/runs', 'GET /api/runs?limit=5', 'POST /api/runs/x/rerun']);
  });

  it('with sign-in on, leaves every request to Next.js (who asks comes from its session)', async () => {
    const signIn = await serve({ ...readEnv(), AUTH_SECRET: 'a-secret-long-enough-for-the-test-0123456789' });
    try {
      toNext = [];
      const res = await fetch(`${signIn.base}/api/runs`, submission({ method: 'direct', question: 'Which drugs treat gout?' }));
      expect(res.status).toBe(418);
      expect(toNext).toEqual(['POST /api/runs']);
    } finally {
      await signIn.close();
    }
  });
});
