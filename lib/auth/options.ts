import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { readEnv } from '@/lib/config';
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
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          try {
            return await checkCredentials(credentials.email, credentials.password);
          } catch (error) {
            // The library shows a thrown message in the address bar: never the internal one (it may name the database).
            console.error('[auth] checking credentials failed:', error);
            throw new Error('Sign-in is unavailable right now; try again shortly');
          }
        },
      }),
    ],
    callbacks: {
      jwt: ({ token, user }) => (user ? { ...token, sub: user.id } : token),
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
    },
  };
}
