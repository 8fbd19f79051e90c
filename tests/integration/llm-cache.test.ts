import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../../lib/db/client';
import { PostgresResponseCache } from '../../lib/llm/store';

afterAll(closeDb);

describe('PostgresResponseCache', () => {
  it('stores an entry in Postgres and reads it back', async () => {
    const cache = new PostgresResponseCache();
    const key = `test-${randomUUID()}`;

    expect(await cache.get(key)).toBeNull();
    await cache.set(key, { model: 'm', output: '{"verdict":"yes"}', tokensIn: 12, tokensOut: 3 });

    expect(await new PostgresResponseCache().get(key)).toEqual({ model: 'm', output: '{"verdict":"yes"}', tokensIn: 12, tokensOut: 3 });
  });

  it('keeps the first answer when two workers store the same key', async () => {
    const cache = new PostgresResponseCache();
    const key = `test-${randomUUID()}`;
    await cache.set(key, { model: 'm', output: 'first', tokensIn: 1, tokensOut: 1 });
    await cache.set(key, { model: 'm', output: 'second', tokensIn: 2, tokensOut: 2 });
    expect((await cache.get(key))?.output).toBe('first');
  });
});
