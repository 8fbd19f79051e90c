import { InvalidInputError } from '@/lib/base/errors';

/**
 * The checks every input passes where it enters (HTTP bodies, query strings
 * and route segments, server-action forms, CLI arguments and the question sets
 * the CLI imports): text PostgreSQL cannot store or a browser would mangle is
 * refused with a 400 / exit code 2 naming where it is, never stored and never
 * a 500.
 */

/** Request bodies larger than this are refused with 413 before they are parsed. */
export const MAX_JSON_BODY_BYTES = 4 * 1024 * 1024;

/** A body over the limit: mapped to 413. */
export class PayloadTooLargeError extends Error {}

// A NUL (PostgreSQL text cannot hold it) or a UTF-16 surrogate without its pair (not valid Unicode).
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | null {
  const m = UNSAFE.exec(text);
  if (!m) return null;
  return m[0] === '\u0000'
    ? 'contains a NUL byte (U+0000)'
    : `contains a lone surrogate (U+${m[0].charCodeAt(0).toString(16).toUpperCase()}), which is not valid Unicode`;
}

/** JSON nested deeper than this is refused (400): no input of Hopscope's nests past a dozen levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Field names that would reach an object's prototype where a parsed value is
 * copied or merged: refused (400), never silently dropped.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The first problem in a JSON-like value: a string (or object key) that cannot
 * be stored, a reserved field name, or nesting deeper than MAX_JSON_DEPTH, with its path.
 */
export function findUnsafeText(value: unknown, path: string[] = []): { path: string; message: string } | null {
  if (path.length > MAX_JSON_DEPTH && value !== null && typeof value === 'object') {
    return { path: path.slice(0, 8).join('.') + '.…', message: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { path: path.join('.'), message: problem } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object' && !(value instanceof Blob)) {
    for (const [key, inner] of Object.entries(value)) {
      const keyProblem = problemOf(key);
      if (keyProblem) return { path: [...path, clip(key, 40)].join('.'), message: `a field name ${keyProblem}` };
      if (RESERVED_KEYS.has(key)) return { path: [...path, key].join('.'), message: `"${key}" is not accepted as a field name` };
      const found = findUnsafeText(inner, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Throws InvalidInputError (400, CLI exit code 2) when any text in the value cannot be stored. */
export function assertSafeText<T>(value: T, what = 'the input'): T {
  const found = findUnsafeText(value);
  if (found) {
    const where = found.path ? `${found.path}: ` : '';
    throw new InvalidInputError(`${where}${found.message}; remove it from ${what}`, [{ path: found.path, message: found.message }]);
  }
  return value;
}

/** A form's text fields (files are checked where they are read). */
export function assertSafeForm(form: FormData): void {
  const fields: Record<string, string[]> = {};
  form.forEach((value, key) => {
    if (typeof value === 'string') (fields[key] ??= []).push(value);
  });
  assertSafeText(fields, 'the form');
}

/** A value quoted in a message, shortened: an error never echoes a large input back. */
export function clip(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length.toLocaleString('en')} characters)`;
}

/**
 * The request body as text, at most `limit` bytes: a declared length over the
 * limit is refused before reading, and reading stops as soon as the limit is
 * passed (a body sent without a length cannot make the server buffer more).
 */
export async function readBodyText(request: Request, limit = MAX_JSON_BODY_BYTES): Promise<string> {
  const tooLarge = () => new PayloadTooLargeError(`The request body is larger than ${Math.round(limit / 1024 / 1024)} MiB`);
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
