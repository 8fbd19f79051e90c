import { describe, expect, it } from 'vitest';
import { cachedRead } from '@/lib/db/cached-read';

describe('cachedRead', () => {
  it('reads a key once, and reads it again after a failure instead of returning the failure', async () => {
    const cache = new Map<string, Promise<number>>();
    let reads = 0;
    const failing = () => {
      reads++;
      return Promise.reject(new Error('connect ECONNREFUSED'));
    };
    await expect(cachedRead(cache, 'k', failing)).rejects.toThrow('ECONNREFUSED');
    await Promise.resolve();
    expect(cache.has('k')).toBe(false);
    const ok = () => {
      reads++;
      return Promise.resolve(42);
    };
    expect(await cachedRead(cache, 'k', ok)).toBe(42);
    expect(await cachedRead(cache, 'k', ok)).toBe(42);
    expect(reads).toBe(2);
  });
});
