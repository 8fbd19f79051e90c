import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipAround, gzipWith, joinWith } from '@/lib/base/gzip-around';

/** A page's gzip made once around the places its nonce goes: each use decodes to the parts with that use's text between them. */
describe('gzip around per-use texts', () => {
  // As a run page is: a few script tags carrying the nonce, then long stretches of HTML and flight data between them.
  const page = Buffer.from(
    Array.from(
      { length: 20 },
      (_, i) =>
        `<script src="/_next/static/chunks/${i}.js" nonce="@@" async></script>` +
        Array.from({ length: 60 }, (_, j) => `<li data-ordinal="${j}">step ${i}.${j}: ${'evidence '.repeat(j % 11)}</li>`).join(''),
    ).join('\n'),
  );
  const parts = page
    .toString()
    .split('@@')
    .map((p) => Buffer.from(p));

  it('decodes to the parts with each use’s text between them, and compresses as well as the whole', () => {
    const made = gzipAround(parts, 24);
    for (const nonce of ['Lym6WFPG/BU7zMJLXk+HYQ==', 'AAAAAAAAAAAAAAAAAAAAAA==', '\0'.repeat(24), '<script>alert(1)</script']) {
      const gz = gzipWith(made, nonce);
      expect(gunzipSync(gz).toString()).toBe(page.toString().replaceAll('@@', nonce));
      expect(joinWith(made, nonce).toString()).toBe(page.toString().replaceAll('@@', nonce));
      // Parts compressed apart lose little against the whole page compressed at once.
      expect(gz.length).toBeLessThan(gzipSync(page).length * 1.25);
    }
  });

  it('holds empty parts, a single part, multi-byte text and parts holding NUL bytes', () => {
    for (const pieces of [[''], ['only'], ['', '', ''], ['é', 'ü', ''], ['a\0\0\0\0b', '\0\0\0\0a\0\0\0\0b']]) {
      const made = gzipAround(
        pieces.map((p) => Buffer.from(p)),
        4,
      );
      expect(gunzipSync(gzipWith(made, 'ñø')).toString()).toBe(pieces.join('ñø'));
    }
  });

  it('refuses a text of another length, or too long for one stored block', () => {
    expect(() => gzipWith(gzipAround([Buffer.from('a'), Buffer.from('b')], 2), 'xyz')).toThrow(/2 bytes/);
    expect(() => gzipAround([Buffer.from('a'), Buffer.from('b')], 70_000)).toThrow(/65,535/);
  });
});
