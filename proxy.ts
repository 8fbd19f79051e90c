import { NextResponse, type NextRequest } from 'next/server';
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS, newNonce, pageContentSecurityPolicy } from '@/lib/security/headers';

/**
 * Every response gets the security headers of
 * lib/security/headers.ts. A page's nonce travels on the request's CSP header,
 * from which Next.js reads it to mark its own scripts.
 */
export function proxy(request: NextRequest) {
  const api = request.nextUrl.pathname.startsWith('/api/');
  const csp = api ? API_CONTENT_SECURITY_POLICY : pageContentSecurityPolicy(newNonce(), { dev: process.env.NODE_ENV === 'development' });
  const requestHeaders = new Headers(request.headers);
  if (!api) requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  for (const [name, value] of Object.entries(FIXED_SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ['/:path*'],
};
