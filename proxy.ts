import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import { guardRequest } from '@/lib/security/request-guard';
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS, newNonce, pageContentSecurityPolicy } from '@/lib/security/headers';

/**
 * Every response gets the security headers of lib/security/headers.ts. A page's nonce travels on the request's CSP header,
 * from which Next.js reads it to mark its own scripts.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // A dynamic segment Next.js cannot decode would end as a bare 500 past this point: a 400, with the headers, here.
  if (!decodable(pathname)) {
    return withHeaders(NextResponse.json({ error: 'The address holds malformed %-encoding' }, { status: 400 }), API_CONTENT_SECURITY_POLICY);
  }
  // Another site driving the app through a visitor's browser: a rebound Host, a cross-origin or non-JSON write.
  const refusal = guardRequest({ method: request.method, pathname, headers: request.headers });
  if (refusal) return withHeaders(NextResponse.json({ error: refusal.error }, { status: refusal.status }), API_CONTENT_SECURITY_POLICY);
  // NextAuth.js's sign-in and sign-out pages are pages (HTML with a form), the rest of /api data.
  const api = pathname.startsWith('/api/') && !pathname.startsWith('/api/auth/');
  // With sign-in on (AUTH_SECRET), a page other than a share link needs a valid session (a cookie that decrypts
  // under the secret, unexpired): off to the sign-in page first. Pages, actions and API routes verify it again themselves.
  if (process.env.AUTH_SECRET && !pathname.startsWith('/api/') && !PUBLIC_PAGE.test(pathname) && !(await hasSession(request, process.env.AUTH_SECRET))) {
    const signIn = new URL('/api/auth/signin', request.url);
    signIn.searchParams.set('callbackUrl', `${pathname}${request.nextUrl.search}`);
    return withHeaders(NextResponse.redirect(signIn), API_CONTENT_SECURITY_POLICY);
  }
  const csp = api ? API_CONTENT_SECURITY_POLICY : pageContentSecurityPolicy(newNonce(), { dev: process.env.NODE_ENV === 'development' });
  const requestHeaders = new Headers(request.headers);
  if (!api) requestHeaders.set('Content-Security-Policy', csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

/** Share links, build files and the icon open without signing in. */
const PUBLIC_PAGE = /^\/(r|c|e)\/|^\/_next\/|^\/favicon\.ico$/;
const SESSION_COOKIES = ['next-auth.session-token', '__Secure-next-auth.session-token'];

/** Whether the request carries a session cookie that NextAuth.js's own decoder accepts (a forged or stale one does not count). */
async function hasSession(request: NextRequest, secret: string): Promise<boolean> {
  for (const cookieName of SESSION_COOKIES) {
    if (!request.cookies.getAll().some((c) => c.name === cookieName || c.name.startsWith(`${cookieName}.`))) continue;
    const token = await getToken({ req: request, secret, cookieName }).catch(() => null);
    if (token?.sub) return true;
  }
  return false;
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function withHeaders(response: NextResponse, csp: string): NextResponse {
  response.headers.set('Content-Security-Policy', csp);
  for (const [name, value] of Object.entries(FIXED_SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ['/:path*'],
};
