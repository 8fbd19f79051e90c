import { BoundedMemo } from '@/lib/base/memo';
import { readEnv, type HopscopeEnv } from '@/lib/config';

/**
 * Checks every request passes in proxy.ts before anything runs, so that no
 * other web page can drive the app through a visitor's browser:
 *
 * - Host allow-list: without sign-in (or with HOPSCOPE_ALLOWED_HOSTS set) a
 *   request must name an allowed host, by default the loopback names and
 *   HOPSCOPE_HOST; a DNS-rebound name pointing at 127.0.0.1 is refused (403).
 * - Origin: a browser's cross-origin state-changing API call (its Origin
 *   another site, or "null") is refused (403); tools that send no Origin pass.
 * - Content type: a state-changing API call with a body must say it is JSON
 *   (415): a cross-site form or a no-cors fetch cannot.
 *
 * NextAuth.js's own routes (/api/auth/*) take its form posts, guarded by its CSRF token.
 */

export interface GuardedRequest {
  method: string;
  pathname: string;
  headers: Headers;
}

export interface Refusal {
  status: 403 | 415;
  error: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** The host names this server answers to, or null for any (sign-in on and no list configured). */
export function allowedHosts(env: HopscopeEnv = readEnv()): Set<string> | null {
  if (env.HOPSCOPE_ALLOWED_HOSTS) return new Set(env.HOPSCOPE_ALLOWED_HOSTS);
  if (env.AUTH_SECRET) return null;
  const listen = env.HOPSCOPE_HOST.toLowerCase();
  const own = WILDCARD.has(listen) ? [] : [listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen];
  return new Set([...LOOPBACK, ...own]);
}

/** `host[:port]` → the host name, lower-case (IPv6 kept in brackets); null when it does not parse. */
export function hostName(hostHeader: string | null): string | null {
  // A server sees a handful of Host headers; parsing one as a URL on every request was ~0.1 ms of each kept read.
  return hostHeader ? hostNames.get(hostHeader, parseHostName) : null;
}

const hostNames = new BoundedMemo<string, string | null>(64);

function parseHostName(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export function guardRequest(request: GuardedRequest, env: HopscopeEnv = readEnv()): Refusal | null {
  const hosts = allowedHosts(env);
  const host = hostName(request.headers.get('host'));
  if (hosts && (!host || !hosts.has(host))) {
    return { status: 403, error: `This server does not answer to the host "${host ?? ''}" (allowed: ${[...hosts].join(', ')}; set HOPSCOPE_ALLOWED_HOSTS)` };
  }
  const api = request.pathname.startsWith('/api/') && !request.pathname.startsWith('/api/auth/');
  if (!api || SAFE_METHODS.has(request.method.toUpperCase())) return null;

  const origin = request.headers.get('origin');
  if (origin !== null) {
    let originHost: string | null = null;
    try {
      originHost = origin === 'null' ? null : new URL(origin).host.toLowerCase();
    } catch {
      originHost = null;
    }
    if (!originHost || originHost !== request.headers.get('host')?.toLowerCase()) {
      return { status: 403, error: 'Cross-origin requests may not change anything here' };
    }
  }

  const type = request.headers.get('content-type');
  const hasBody = Number(request.headers.get('content-length') ?? 0) > 0 || request.headers.has('transfer-encoding');
  if ((type !== null || hasBody) && !isJson(type)) {
    return { status: 415, error: 'Send the body as JSON (Content-Type: application/json)' };
  }
  return null;
}

function isJson(type: string | null): boolean {
  if (!type) return false;
  const essence = type.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}
