import 'server-only';
import { redirect } from 'next/navigation';
import { HttpError } from '@/lib/api/errors';
import { ownerFilter } from './access';
import { countEvalJobs, countRuns } from './store';
import { viewerFor, type Viewer } from './viewer';

/** The viewer of a page; with sign-in on and nobody signed in, off to the sign-in page (back here after). */
export async function pageViewer(path: string): Promise<Viewer> {
  try {
    return await viewerFor();
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) redirect(`/api/auth/signin?callbackUrl=${encodeURIComponent(path)}`);
    throw error;
  }
}

/** Whether the viewer may open these runs' own pages (lib/auth/access); someone else's run is a 404 there. */
export async function canOpenRuns(viewer: Viewer, ids: string[]): Promise<boolean> {
  if (!viewer.auth) return true;
  const visible = await countRuns(ids, ownerFilter(viewer));
  return visible === new Set(ids).size;
}

export async function canOpenEval(viewer: Viewer, id: string): Promise<boolean> {
  if (!viewer.auth) return true;
  return (await countEvalJobs(id, ownerFilter(viewer))) === 1;
}
