import { randomBytes } from 'node:crypto';

/** 128 random bits, URL-safe: permalinks cannot be guessed or enumerated. */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}
