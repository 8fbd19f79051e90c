import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HopscopeEnv } from '@/lib/config';
import { guardRequest } from '@/lib/security/request-guard';
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS } from '@/lib/security/headers';

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;
/** A route handler as app/api exports it (lib/api/route.ts defineRoute). */
export type RouteHandler = (request: Request) => Promise<Response>;

/**
 * Route handlers the web server (scripts/web.ts) calls itself, in front of Next.js: the same handler
 * Next.js would call (app/api/...), without Next.js's own work per request (proxy, routing, its streams:
 * ≈ 9 ms of CPU of a 12 ms run submission; a burst of submissions took the CPU kept reads waited for).
 * An answer gets what proxy.ts gives every API answer: the request guard first (a refusal is left to
 * Next.js, which answers it), the API's CSP and the fixed security headers.
 * Only without sign-in, as kept reads: with it, who asks comes from Next.js's session.
 * `routes` is keyed by method and path, e.g. `POST /api/runs`.
 */
export function frontRoutes(handle: Handler, routes: Record<string, RouteHandler>, { env }: { env: HopscopeEnv }): Handler {
  if (env.AUTH_SECRET) return handle;
  return async (req, res) => {
    const [pathname] = (req.url ?? '').split('?', 1);
    const route = routes[`${req.method} ${pathname}`];
    if (!route) return handle(req, res);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (value) for (const v of value) headers.append(name, v);
    }
    if (guardRequest({ method: req.method!, pathname, headers }, env)) return handle(req, res);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
    const request = new Request(`http://${headers.get('host')}${req.url}`, { method: req.method, headers, body, duplex: 'half' } as RequestInit);
    let response: Response;
    try {
      response = await route(request);
    } catch (error) {
      // defineRoute maps every error to an answer; one that escapes it is the server's.
      console.error(`[api] ${req.method} ${pathname} failed:`, error);
      response = Response.json({ error: 'Internal error' }, { status: 500 });
    }
    const answer = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, {
      ...Object.fromEntries(response.headers),
      'content-security-policy': API_CONTENT_SECURITY_POLICY,
      ...FIXED_SECURITY_HEADERS,
      'content-length': answer.length,
    });
    res.end(answer);
  };
}
