import { ownerFilter } from '@/lib/auth/access';
import type { Viewer } from '@/lib/auth/viewer';
import { getPrisma } from '@/lib/db/client';
import { NotFoundError } from '@/lib/base/errors';

/** A document as the provenance panel shows it: its whole text, so a passage's span can be highlighted in place. */
export interface DocumentView {
  id: string;
  source: string;
  externalId: string | null;
  title: string | null;
  text: string;
  passages: { id: string; ordinal: number; start: number; end: number; label: string | null }[];
}

/** A document the viewer may read: the corpus's, or one attached to their runs or brought by their sets (lib/auth/access). */
export async function getDocument(id: string, viewer: Viewer): Promise<DocumentView> {
  const doc = await getPrisma().document.findFirst({
    where: { id, ...ownerFilter(viewer) },
    select: {
      id: true,
      source: true,
      externalId: true,
      title: true,
      text: true,
      passages: { orderBy: { ordinal: 'asc' }, select: { id: true, ordinal: true, start: true, end: true, label: true } },
    },
  });
  if (!doc) throw new NotFoundError(`No document with id ${id}`);
  return doc;
}
