import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelAgent, openaiClient, socketTimeouts } from '../../lib/llm/http';

describe('the model transport', () => {
  it('never gives up on a slow model before the configured timeout (Node fetch alone stops at 300 s)', () => {
    const thirtyMinutes = 30 * 60_000;
    const limits = socketTimeouts(thirtyMinutes);
    expect(limits.headersTimeout).toBeGreaterThan(thirtyMinutes);
    expect(limits.bodyTimeout).toBeGreaterThan(thirtyMinutes);
  });

  describe('through the openai client', () => {
    const server = createServer((req, res) => {
      // Headers come late, as from a model that thinks before it answers.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'slow-model', object: 'model', created: 0, owned_by: 'test' }] }));
      }, 300);
    });
    let baseURL = '';
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('carries requests and their late answers', async () => {
      const client = await openaiClient({ baseUrl: baseURL, apiKey: 'k', timeoutMs: 10_000 });
      const page = await client.models.list();
      expect(page.data.map((m) => m.id)).toEqual(['slow-model']);
    });

    it('shares one connection pool per timeout', async () => {
      expect(await modelAgent(10_000)).toBe(await modelAgent(10_000));
      expect(await modelAgent(10_000)).not.toBe(await modelAgent(20_000));
    });
  });
});
