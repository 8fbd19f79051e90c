import NextAuth from 'next-auth';
import { authOptions, trustRequestHost } from '@/lib/auth/options';
import { authConfigured } from '@/lib/config';

export const dynamic = 'force-dynamic';

type Handler = (request: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;

/** /api/auth/* — NextAuth.js: its sign-in and sign-out pages, session and CSRF endpoints. Absent (404) without AUTH_SECRET. */
const handler: Handler = async (request, context) => {
  if (!authConfigured()) return Response.json({ error: 'Sign-in is not configured on this server (no AUTH_SECRET)' }, { status: 404 });
  trustRequestHost();
  return (NextAuth(authOptions()) as unknown as Handler)(request, context);
};
