import { expect, test } from '@playwright/test';

/**
 * Security headers on every response, checked against the running app: pages
 * allow only scripts carrying this response's nonce (no inline script an
 * attacker wrote can run) and may not be framed; API responses allow nothing.
 */

test('a page carries a nonce CSP that its own scripts satisfy, and cannot be framed', async ({ page, request }) => {
  const response = await request.get('/');
  const headers = response.headers();
  const csp = headers['content-security-policy'];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src [^;]*'strict-dynamic'/);
  expect(/script-src [^;]*'unsafe-inline'/.test(csp)).toBe(false);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  // A second response has another nonce.
  expect((await request.get('/')).headers()['content-security-policy']).not.toContain(nonce!);

  // In Chromium the page hydrates and works under the policy: no violation reported.
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await page.goto('/kg');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.getByRole('link', { name: 'Evaluation' }).click();
  await expect(page).toHaveURL(/\/eval$/);
  expect(violations).toEqual([]);
});

test("a finished run's page the server kept is sent with a fresh nonce that its scripts satisfy", async ({ page, request }) => {
  const created = await request.post('/api/runs', { data: { method: 'direct', question: 'Which drugs treat gout?', backend: 'offline' } });
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${id}`)).json()) as { status: string }).status, { timeout: 120_000, intervals: [500] })
    .toBe('succeeded');
  // Rendered once for the run's state, then kept (lib/runs/kept-reads.ts): each answer with a nonce of its own.
  const rendered = await request.get(`/runs/${id}`);
  const kept = await request.get(`/runs/${id}`);
  expect(kept.headers()['x-hopscope-read']).toBe('kept');
  const [first, again] = [rendered, kept].map((r) => /'nonce-([^']+)'/.exec(r.headers()['content-security-policy'])![1]);
  expect(again).not.toBe(first);
  const html = await kept.text();
  expect(html).not.toContain(first);
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${again}"`);

  // In Chromium the kept page hydrates under its policy: the trace renders in the browser, no violation reported.
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  const opened = await page.goto(`/runs/${id}`);
  expect(opened!.headers()['x-hopscope-read']).toBe('kept');
  await expect(page.getByTestId('trace-timeline')).toBeVisible();
  expect(violations).toEqual([]);
});

test('API responses, downloads and 404s carry the headers too', async ({ request }) => {
  for (const path of ['/api/health', '/api/methods', '/api/runs/no-such-run', '/no-such-page']) {
    const headers = (await request.get(path)).headers();
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['referrer-policy'], path).toBe('no-referrer');
  }
  expect((await request.get('/api/health')).headers()['content-security-policy']).toContain("default-src 'none'");
});

test('malformed %-encoding in a path is a 400 that carries the headers, not a bare 500', async ({ request }) => {
  for (const path of ['/api/runs/%ED%A0%80', '/runs/%E0%A4%A', '/api/runs/%ED%A0%80/view']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(400);
    expect(response.headers()['x-content-type-options'], path).toBe('nosniff');
    expect(response.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
  }
});

test('without sign-in, another site cannot drive the app: rebound Host, cross-origin and non-JSON writes are refused', async ({ request, baseURL }) => {
  const body = JSON.stringify({ method: 'kg-rag', question: 'Which diseases does metformin treat?', backend: 'offline' });
  expect((await request.get('/api/health', { headers: { host: 'rebind.attacker.example' } })).status()).toBe(403);
  expect((await request.post('/api/runs', { data: body, headers: { 'content-type': 'text/plain' } })).status()).toBe(415);
  expect((await request.post('/api/runs', { data: body, headers: { 'content-type': 'application/json', origin: 'https://attacker.example' } })).status()).toBe(
    403,
  );
  const own = await request.post('/api/runs', { data: body, headers: { 'content-type': 'application/json', origin: new URL(baseURL!).origin } });
  expect(own.status()).toBe(201);
});
