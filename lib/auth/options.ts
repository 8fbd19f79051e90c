import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { readEnv } from '@/lib/config';
import { signInThrottle } from './throttle';
import { checkCredentials } from './users';

/**
 * Sign-in through NextAuth.js (next-auth v4): an email and password checked
 * against the users table (scrypt hashes), a signed and encrypted session
 * cookie (JWT, AUTH_SECRET), the library's own sign-in and sign-out pages.
 * Nothing leaves the machine: no OAuth provider is contacted.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: readEnv().AUTH_SECRET,
    session: { strategy: 'jwt', maxAge: 7 * 24 * 3600 },
    providers: [
      CredentialsProvider({
        name: 'Hopscope account',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: (credentials, req) => authorizeSignIn(credentials, clientAddress(req?.headers)),
      }),
    ],
    callbacks: {
      jwt: ({ token, user }) => (user ? { ...token, sub: user.id } : token),
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
      redirect: ({ url, baseUrl }) => safeRedirect(url, baseUrl),
    },
  };
}

/**
 * Sign-in's links and redirects are built from NEXTAUTH_URL when it is set,
 * else from the request's own Host (which the proxy checks against
 * HOPSCOPE_ALLOWED_HOSTS when that is set): never from the library's default,
 * http://localhost:3000. Called before NextAuth.js handles a request.
 */
export function trustRequestHost(): void {
  if (!readEnv().NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= 'true';
}

export class SignInThrottled extends Error {
  name = 'SignInThrottled';
}

/**
 * One sign-in attempt: refused while the account or the address is throttled
 * (./throttle.ts), even with the right password; a failure counts against both.
 */
export async function authorizeSignIn(credentials: Record<string, string> | undefined, address: string | null) {
  if (!credentials?.email || !credentials.password) return null;
  const account = credentials.email.trim().toLowerCase();
  const throttle = signInThrottle();
  const wait = throttle.waitSeconds(account, address);
  if (wait) throw new SignInThrottled(`Too many sign-in attempts; try again in ${wait} s`);
  let user: Awaited<ReturnType<typeof checkCredentials>>;
  try {
    user = await checkCredentials(account, credentials.password);
  } catch (error) {
    // The library shows a thrown message in the address bar: never the internal one (it may name the database).
    console.error('[auth] checking credentials failed:', error);
    throw new Error('Sign-in is unavailable right now; try again shortly');
  }
  if (user) throttle.succeeded(account);
  else throttle.failed(account, address);
  return user;
}

/**
 * The client's address as the server saw it: Next.js fills X-Forwarded-For
 * from the socket when the request carries none; behind a reverse proxy, its
 * first entry is the one the proxy saw. (A client talking to the server
 * directly can set it itself: the per-account bucket still holds then.)
 */
function clientAddress(headers: Record<string, unknown> | undefined): string | null {
  const forwarded = headers?.['x-forwarded-for'];
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim() : '';
  return first || null;
}

/**
 * Where sign-in and sign-out may send the browser: a path on this site, or a
 * URL of exactly this origin; anything else (another host, a look-alike such
 * as `localhost:3000.evil.example`, a malformed URL) goes to the home page.
 */
export function safeRedirect(url: string, baseUrl: string): string {
  try {
    const base = new URL(baseUrl);
    if (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) return new URL(url, base).toString();
    const target = new URL(url);
    return target.origin === base.origin ? target.toString() : base.toString();
  } catch {
    return baseUrl;
  }
}
