import { NotFoundError } from '@/lib/base/errors';
import type { OwnerFilter } from '@/lib/base/owners';
import { evalJobOwner, runOwner } from './store';
import type { Viewer } from './viewer';

/**
 * Who may do what. Without sign-in configured there is one person (the server
 * listens on loopback only): every record is theirs. With sign-in, a record
 * with an owner is its owner's alone — read, cancel, rerun, verify, share —
 * and a record without one (made before sign-in was turned on) belongs to every
 * signed-in user; what others own is reachable only through its share link.
 * Someone else's record answers 404, as if it did not exist.
 */
/** The viewer without sign-in: the one local user, who sees everything. */
export const LOCAL_VIEWER: Viewer = { auth: false, user: null };

export function ownerFilter(viewer: Viewer): OwnerFilter {
  if (!viewer.auth) return {};
  return { OR: [{ ownerId: viewer.user!.id }, { ownerId: null }] };
}

/** The viewer acting for a stored owner (an evaluation's runs, a job's set lookup): that user, or the local user for none. */
export function viewerOfOwner(ownerId: string | null | undefined): Viewer {
  return ownerId ? { auth: true, user: { id: ownerId, email: '' } } : LOCAL_VIEWER;
}

/** The owner a new record gets: the signed-in user, or none without sign-in. */
export function ownerOf(viewer: Viewer): string | null {
  return viewer.auth ? viewer.user!.id : null;
}

export function allowed(viewer: Viewer, ownerId: string | null): boolean {
  return !viewer.auth || ownerId === null || ownerId === viewer.user!.id;
}

export async function assertRunAccess(viewer: Viewer, runId: string): Promise<void> {
  const owner = await runOwner(runId);
  if (owner === undefined || !allowed(viewer, owner)) throw new NotFoundError(`No run with id ${runId}`);
}

export async function assertEvalAccess(viewer: Viewer, jobId: string): Promise<void> {
  const owner = await evalJobOwner(jobId);
  if (owner === undefined || !allowed(viewer, owner)) throw new NotFoundError(`No evaluation with id ${jobId}`);
}
