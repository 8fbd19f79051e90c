import { ZodError } from 'zod';
import { ConflictError, InvalidInputError, NotFoundError } from '@/lib/base/errors';
import { clip, PayloadTooLargeError } from './input';
import { isConnectionLoss } from '@/lib/db/connection-loss';

/** An error that carries its own HTTP status and a message safe to show callers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface ErrorBody {
  error: string;
  issues?: { path: string; message: string }[];
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** Whether the error is unexpected (logged server-side; message hidden from the caller). */
  internal: boolean;
}

function issuesOf(error: ZodError) {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/**
 * The one place that maps error classes to HTTP status: invalid input 400, not
 * found 404, conflict 409, an unreachable database 503, anything else 500 with a generic message (the real
 * one, which may hold connection strings or SQL, stays in the server log).
 */
export function mapError(error: unknown): MappedError {
  const mapped = classify(error);
  // An error never echoes a large input back: messages and issues are shortened.
  const body: ErrorBody = { ...mapped.body, error: clip(mapped.body.error, 1000) };
  if (mapped.body.issues) body.issues = mapped.body.issues.slice(0, 20).map((i) => ({ path: clip(i.path, 200), message: clip(i.message, 300) }));
  return { ...mapped, body };
}

function classify(error: unknown): MappedError {
  if (error instanceof PayloadTooLargeError) return { status: 413, body: { error: error.message }, internal: false };
  if (error instanceof ZodError) {
    const issues = issuesOf(error);
    const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return { status: 400, body: { error: `Invalid input: ${message}`, issues }, internal: false };
  }
  if (error instanceof InvalidInputError) {
    return {
      status: 400,
      body: { error: error.message, ...(error.issues.length ? { issues: error.issues } : {}) },
      internal: false,
    };
  }
  if (error instanceof NotFoundError) return { status: 404, body: { error: error.message || 'Not found' }, internal: false };
  if (error instanceof ConflictError) return { status: 409, body: { error: error.message || 'Conflict' }, internal: false };
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
    return { status: error.status, body: { error: error.message }, internal: false };
  }
  // A database restart passes: say so, so a caller retries instead of giving up.
  if (isConnectionLoss(error)) {
    return { status: 503, body: { error: 'The database is not reachable right now (it may be restarting); try again in a moment' }, internal: true };
  }
  return { status: 500, body: { error: 'Internal server error' }, internal: true };
}
