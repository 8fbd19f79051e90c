/**
 * The security headers of every response (set by proxy.ts; static files get the
 * same fixed ones from next.config.js). Pages get a Content-Security-Policy
 * whose scripts need this request's nonce (Next.js puts it on its own scripts,
 * read from the request's CSP header), so no inline script an attacker wrote
 * can run; nothing may frame a page; API responses allow no content at all.
 */

/** Headers that do not depend on the request. */
export const FIXED_SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  // A share link in the address must not travel to other sites as a Referer.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
};

/** The CSP of a page: scripts only from this origin with the request's nonce; styles may be inline (React style props, Cytoscape). */
export function pageContentSecurityPolicy(nonce: string, { dev = false } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The CSP of an API response or a download: it is data, never a document that runs anything. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** A fresh nonce per request (128 random bits). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
