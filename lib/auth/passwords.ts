import { randomBytes, scrypt, timingSafeEqual, createHash } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * Passwords hashed with scrypt (node:crypto; N=2^15, r=8, p=1, 64-byte key, a
 * random 16-byte salt), stored as `scrypt$N$r$p$salt$hash`; compared in
 * constant time. API tokens are random (256 bits) and stored only as SHA-256.
 */
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
const PARAMS = { N: 1 << 15, r: 8, p: 1 };
const KEY_LENGTH = 64;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A new API token as shown once to its owner (`hsk_…`) and the digest stored in its place. */
export function newApiToken(): { token: string; digest: string } {
  const token = `hsk_${randomBytes(32).toString('base64url')}`;
  return { token, digest: tokenDigest(token) };
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
