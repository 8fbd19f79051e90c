import { describe, expect, it } from 'vitest';
import { backoffDelayMs, retryAfterMs, sleep } from '../../lib/llm/retry';

const policy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now)).toBe(0);
  });

  it('is null when absent or unreadable', () => {
    expect(retryAfterMs(undefined)).toBeNull();
    expect(retryAfterMs(new Headers())).toBeNull();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeNull();
  });
});

describe('backoffDelayMs', () => {
  it('doubles per failure and caps at the maximum', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(policy, n, null))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it("prefers the server's request, still capped", () => {
    expect(backoffDelayMs(policy, 1, 700)).toBe(700);
    expect(backoffDelayMs(policy, 1, 60_000)).toBe(1_000);
  });
});

describe('sleep', () => {
  it('rejects as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    await expect(sleep(5_000, controller.signal)).rejects.toThrow('cancelled');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
