import { NextResponse, type NextRequest } from 'next/server';
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS, newNonce, pageContentSecurityPolicy } from '@/lib/security/headers';

/**
 * Every response gets the security headers of lib/security/headers.ts. A page's nonce travels on the request's CSP header,
 * from which Next.js reads it to mark its own scripts.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // NextAuth.js's sign-in and sign-out pages are pages (HTML with a form), the rest of /api data.
  const api = pathname.startsWith('/api/') && !pathname.startsWith('/api/auth/');
  // With sign-in on (AUTH_SECRET), a page other than a share link needs a session: off to the sign-in page first.
  // (The session itself is verified where the page reads it; API routes answer 401 on their own.)
  if (process.env.AUTH_SECRET && !pathname.startsWith('/api/') && !PUBLIC_PAGE.test(pathname) && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
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

function withHeaders(response: NextResponse, csp: string): NextResponse {
  response.headers.set('Content-Security-Policy', csp);
  for (const [name, value] of Object.entries(FIXED_SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ['/:path*'],
};
