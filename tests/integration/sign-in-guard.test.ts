import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { proxy } from '@/proxy';
import { authOptions, authorizeSignIn, SignInThrottled, trustRequestHost } from '@/lib/auth/options';
import { createUser } from '@/lib/auth/users';
import { readEnv } from '@/lib/config';
import { closeDb } from '@/lib/db/client';

/**
 * Sign-in: throttled per account and per address (the right password is
 * refused while throttled), an unknown email costs the same scrypt as a known
 * one, redirects come from the request's own origin and a hostile callbackUrl
 * goes home, never a 500. Without sign-in: a rebound Host, a cross-origin
 * write and a non-JSON write are refused before any route runs.
 */

// NextAuth.js's core handler, the one its route handler calls (not in the package's exports map; its route
// handler reads the request through next/headers, which needs Next.js's request scope).
type InternalResponse = { status?: number; body?: unknown; redirect?: string; cookies?: { name: string; value: string }[] };
const { AuthHandler } = createRequire(import.meta.url)(path.resolve('node_modules/next-auth/core/index.js')) as {
  AuthHandler: (params: { req: Request; options: unknown }) => Promise<InternalResponse>;
};

const saved = { secret: process.env.AUTH_SECRET, url: process.env.NEXTAUTH_URL, trust: process.env.AUTH_TRUST_HOST, hosts: process.env.HOPSCOPE_ALLOWED_HOSTS };
const tag = randomUUID().slice(0, 8);
const email = `carol-${tag}@lab.example`;
const password = 'a long enough password';

beforeAll(async () => {
  process.env.AUTH_SECRET = randomUUID() + randomUUID();
  delete process.env.NEXTAUTH_URL;
  delete process.env.AUTH_TRUST_HOST;
  await createUser({ email, password });
});

afterAll(async () => {
  for (const [name, value] of [
    ['AUTH_SECRET', saved.secret],
    ['NEXTAUTH_URL', saved.url],
    ['AUTH_TRUST_HOST', saved.trust],
    ['HOPSCOPE_ALLOWED_HOSTS', saved.hosts],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await closeDb();
});

describe('sign-in', () => {
  it('throttles an account: after a burst of wrong passwords even the right one is refused', async () => {
    expect(await authorizeSignIn({ email, password }, '10.0.0.1')).toMatchObject({ email });
    let refusedAt = -1;
    for (let i = 0; i < 50; i++) {
      const outcome = await authorizeSignIn({ email, password: `wrong password ${i}` }, `10.0.1.${i}`).catch((e) => e);
      if (outcome instanceof SignInThrottled) {
        refusedAt = i;
        break;
      }
      expect(outcome).toBeNull();
    }
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt).toBeLessThanOrEqual(5);
    const right = await authorizeSignIn({ email: email.toUpperCase(), password }, '10.0.2.1').catch((e) => e);
    expect(right).toBeInstanceOf(SignInThrottled);
    expect(right.message).toMatch(/try again in \d+ s/);
  }, 60_000);

  it('throttles an address that sprays many accounts', async () => {
    const address = `10.9.${Math.floor(Math.random() * 250)}.7`;
    let refused = false;
    for (let i = 0; i < 30 && !refused; i++) {
      const outcome = await authorizeSignIn({ email: `nobody-${i}-${tag}@lab.example`, password: 'guess guess guess' }, address).catch((e) => e);
      refused = outcome instanceof SignInThrottled;
    }
    expect(refused).toBe(true);
    // Another address is not held up by it.
    expect(await authorizeSignIn({ email: `someone-${tag}@lab.example`, password: 'guess guess guess' }, '10.8.0.1')).toBeNull();
  }, 60_000);

  it('answers an unknown email after the same scrypt work as a known one', async () => {
    const known = `dave-${tag}@lab.example`;
    await createUser({ email: known, password });
    const time = async (who: string, i: number) => {
      const started = performance.now();
      expect(await authorizeSignIn({ email: who, password: 'not the password' }, `10.7.0.${i}`)).toBeNull();
      return performance.now() - started;
    };
    await time(`warm-${tag}@lab.example`, 0);
    const knownMs = Math.min(await time(known, 1), await time(known, 2));
    const unknownMs = Math.min(await time(`ghost-${tag}@lab.example`, 3), await time(`ghost2-${tag}@lab.example`, 4));
    // scrypt (N=2^15) dominates both; without the stand-in hash an unknown email answered ~14× faster.
    expect(unknownMs).toBeGreaterThan(knownMs * 0.5);
  }, 60_000);

  it('builds redirects from the request origin, and sends a hostile callbackUrl home without a 500', async () => {
    trustRequestHost();
    const origin = 'http://lab.example:8443';
    const headers = { host: 'lab.example:8443', 'x-forwarded-proto': 'http' };
    const page = await AuthHandler({ req: new Request(`${origin}/api/auth/signin?callbackUrl=%2Fruns`, { headers }), options: authOptions() });
    expect(page.status ?? 200).toBeLessThan(400);
    expect(String(page.body)).toContain(`${origin}/api/auth/callback/credentials`);
    expect(String(page.body)).not.toContain('localhost:3000');

    const csrf = await AuthHandler({ req: new Request(`${origin}/api/auth/csrf`, { headers }), options: authOptions() });
    const cookie = (csrf.cookies ?? []).map((c) => `${c.name}=${c.value}`).join('; ');
    const token = (csrf.body as { csrfToken: string }).csrfToken;
    for (const callbackUrl of ['http://localhost:3000.evil.example/', 'https://evil.example/', '//evil.example/x', '/runs']) {
      const body = new URLSearchParams({ email: `ghost-${tag}@lab.example`, password: 'whatever whatever', csrfToken: token, callbackUrl, json: 'true' });
      const response = await AuthHandler({
        req: new Request(`${origin}/api/auth/callback/credentials`, {
          method: 'POST',
          body,
          headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        }),
        options: authOptions(),
      });
      expect(response.status ?? 200, callbackUrl).toBeLessThan(500);
      const target = new URL(String(response.redirect ?? (response.body as { url?: string })?.url ?? origin));
      expect(target.origin, callbackUrl).toBe(origin);
    }
  });
});

describe('without sign-in', () => {
  const secret = process.env.AUTH_SECRET;
  beforeAll(() => {
    delete process.env.AUTH_SECRET;
    delete process.env.HOPSCOPE_ALLOWED_HOSTS;
  });
  afterAll(() => {
    process.env.AUTH_SECRET = secret ?? randomUUID() + randomUUID();
  });

  const call = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    proxy(
      new NextRequest(`http://127.0.0.1:3000${path}`, { method: init.method ?? 'GET', body: init.body, headers: { host: '127.0.0.1:3000', ...init.headers } }),
    );

  it('answers only to loopback host names (a DNS-rebound name is refused), or to HOPSCOPE_ALLOWED_HOSTS', async () => {
    expect((await call('/api/runs')).status).toBe(200);
    expect((await call('/api/runs', { headers: { host: 'localhost:3000' } })).status).toBe(200);
    for (const host of ['attacker.example:3000', 'rebind.attacker.example', '127.0.0.1.nip.io:3000']) {
      const refused = await call('/api/runs', { headers: { host } });
      expect(refused.status, host).toBe(403);
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await call('/', { headers: { host } })).status, host).toBe(403);
    }
    process.env.HOPSCOPE_ALLOWED_HOSTS = 'lab.example.org, 10.0.0.5';
    try {
      expect((await call('/api/runs', { headers: { host: 'lab.example.org:3000' } })).status).toBe(200);
      expect((await call('/api/runs', { headers: { host: 'localhost:3000' } })).status).toBe(403);
    } finally {
      delete process.env.HOPSCOPE_ALLOWED_HOSTS;
    }
    expect(() => readEnv({ ...process.env, HOPSCOPE_ALLOWED_HOSTS: 'http://lab.example/' })).toThrow(/HOPSCOPE_ALLOWED_HOSTS/);
  });

  it('refuses a cross-origin or non-JSON write with 403 / 415, and lets same-origin JSON and tools through', async () => {
    const body = JSON.stringify({ method: 'kg-rag', question: 'Which diseases does metformin treat?' });
    const json = { 'content-type': 'application/json' };
    expect((await call('/api/runs', { method: 'POST', body, headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await call('/api/runs', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await call('/api/runs', { method: 'POST', body })).status).toBe(415);
    expect((await call('/api/runs', { method: 'POST', body, headers: { ...json, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await call('/api/runs', { method: 'POST', body, headers: { ...json, origin: 'null' } })).status).toBe(403);
    expect((await call('/api/runs', { method: 'POST', body, headers: { ...json, origin: 'http://127.0.0.1:3000' } })).status).toBe(200);
    expect((await call('/api/runs', { method: 'POST', body, headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(200);
    // A bodyless write from a tool (no Origin) passes; a bodyless cross-origin one does not.
    expect((await call('/api/runs/x/cancel', { method: 'POST' })).status).toBe(200);
    expect((await call('/api/runs/x/cancel', { method: 'POST', headers: { origin: 'https://evil.example' } })).status).toBe(403);
    // Reads stay open to any origin's tools; NextAuth.js's own form posts are its business.
    expect((await call('/api/runs', { headers: { origin: 'https://evil.example' } })).status).toBe(200);
  });
});
