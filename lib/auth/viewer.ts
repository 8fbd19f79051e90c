import { getServerSession } from 'next-auth/next';
import { HttpError } from '@/lib/api/errors';
import { authConfigured } from '@/lib/config';
import { authOptions } from './options';
import { userForToken } from './users';

/** Who is asking: without sign-in configured, the one local user; with it, a signed-in user (session cookie or API token). */
export type Viewer = { auth: false; user: null } | { auth: true; user: { id: string; email: string } };

/**
 * The viewer of a request: an `Authorization: Bearer hsk_…` API token, else
 * the sign-in session (cookie). With sign-in configured and neither, 401.
 */
export async function viewerFor(request?: Request): Promise<Viewer> {
  if (!authConfigured()) return { auth: false, user: null };
  const bearer = request?.headers.get('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) {
    const user = await userForToken(bearer);
    if (!user) throw new HttpError(401, 'The API token is not valid (create one with `npm run hopscope -- users token --email …`)');
    return { auth: true, user };
  }
  const session = await getServerSession(authOptions()).catch(() => null);
  const user = session?.user as { id?: string; email?: string | null } | undefined;
  if (!user?.id) throw new HttpError(401, 'Sign in first, or send an API token (Authorization: Bearer …)');
  return { auth: true, user: { id: user.id, email: user.email ?? '' } };
}
