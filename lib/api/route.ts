import { z } from 'zod';
import { mapError } from './errors';
import { InvalidInputError } from '@/lib/base/errors';
import { assertSafeText, readBodyText } from './input';
import { assertEvalAccess, assertRunAccess } from '@/lib/auth/access';
import { viewerFor, type Viewer } from '@/lib/auth/viewer';

/** Query string → plain object: a key given once is a string, repeated keys an array. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

type RouteParams = Record<string, string | string[] | undefined>;

/** What Next passes as the second argument of a route handler. */
export interface RouteContext {
  params: Promise<RouteParams>;
}

export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType> {
  /** Schema of the dynamic segments (`[id]`). */
  params?: P;
  /** Schema of the query string (see `searchParamsToObject`). */
  query?: Q;
  /**
   * The record `params.id` names, which the viewer must own (lib/auth/access):
   * with sign-in on, someone else's run or evaluation answers 404.
   */
  owns?: 'run' | 'eval';
  /** Open without sign-in: share links and the health check. */
  public?: boolean;
}

export interface RouteInput<P, Q> {
  params: P;
  query: Q;
  request: Request;
  /** Who asks (lib/auth/viewer): with sign-in on, a signed-in user or an API token's. */
  viewer: Viewer;
}

const ANYONE: Viewer = { auth: false, user: null };

export type JsonResult = { status?: number; body: unknown; headers?: HeadersInit };

/**
 * The route-handler wrapper: parse and validate the input with zod, call the
 * handler (which calls a lib service), answer JSON. Every error goes through
 * `mapError`: 400 with a clear message for invalid input, 404 for not found,
 * 500 (message hidden, logged) otherwise.
 *
 * The handler returns the body to send with 200, or a `json(status, body)` result.
 */
export function defineRoute<P extends z.ZodType = z.ZodType<RouteParams>, Q extends z.ZodType = z.ZodType<Record<string, unknown>>>(
  spec: RouteSpec<P, Q>,
  handler: (input: RouteInput<z.output<P>, z.output<Q>>) => Promise<unknown>,
) {
  return async function routeHandler(request: Request, context?: RouteContext): Promise<Response> {
    try {
      const rawParams = assertSafeText((await context?.params) ?? {}, 'the address');
      const rawQuery = assertSafeText(searchParamsToObject(new URL(request.url).searchParams), 'the query string');
      // Validate both parts before failing, so one 400 names every problem.
      const params = spec.params ? spec.params.safeParse(rawParams) : { success: true as const, data: rawParams };
      const query = spec.query ? spec.query.safeParse(rawQuery) : { success: true as const, data: rawQuery };
      if (!params.success || !query.success) {
        throw new z.ZodError([...(params.success ? [] : params.error.issues), ...(query.success ? [] : query.error.issues)]);
      }
      // With sign-in on, who asks is known before anything is read (401 otherwise), and owns what it names.
      const viewer = spec.public ? ANYONE : await viewerFor(request);
      const id = (params.data as { id?: unknown }).id;
      if (spec.owns === 'run' && typeof id === 'string') await assertRunAccess(viewer, id);
      if (spec.owns === 'eval' && typeof id === 'string') await assertEvalAccess(viewer, id);
      const result = await handler({ params: params.data as z.output<P>, query: query.data as z.output<Q>, request, viewer });
      if (result instanceof Response) return result;
      if (isJsonResult(result)) return Response.json(result.body, { status: result.status ?? 200, headers: result.headers });
      return Response.json(result);
    } catch (error) {
      const mapped = mapError(error);
      if (mapped.internal) {
        console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed:`, error);
      }
      return Response.json(mapped.body, { status: mapped.status });
    }
  };
}

const JSON_RESULT = Symbol('hopscope.jsonResult');

/** A response with an explicit status (e.g. 503 from the health check). */
export function json(status: number, body: unknown, headers?: HeadersInit): JsonResult {
  return Object.assign({ status, body, headers }, { [JSON_RESULT]: true });
}

function isJsonResult(value: unknown): value is JsonResult {
  return typeof value === 'object' && value !== null && JSON_RESULT in value;
}

/**
 * The request body as JSON: over the size limit a 413 (never read in full), a
 * malformed one a 400, text that cannot be stored (NUL, lone surrogates) a 400
 * naming its field; an empty body is `{}` when `optional`.
 */
export async function readJsonBody(request: Request, { optional = false } = {}): Promise<unknown> {
  const text = await readBodyText(request);
  if (!text.trim() && optional) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidInputError('The body must be JSON');
  }
  return assertSafeText(body, 'the body');
}
