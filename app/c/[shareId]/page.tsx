import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ComparePage } from '@/components/compare/ComparePage';
import { comparePageState } from '@/components/compare/load';
import { loadRunById } from '@/components/runs/load';
import { SHARE_ID } from '@/lib/api/share';
import { toSharedView } from '@/lib/runs/share';
import { AttributionPanel } from '@/components/compare/AttributionPanel';
import { questionAttribution } from '@/lib/runs/attribution';
import { getComparison } from '@/lib/runs/comparisons';
import { NotFoundError } from '@/lib/base/errors';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Shared comparison' };

async function loadComparison(shareId: string) {
  if (!SHARE_ID.test(shareId)) return null;
  try {
    return await getComparison(shareId);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** The permalink of a comparison: both frozen runs, read-only, server-rendered. */
export default async function ComparisonPermalink({ params }: { params: Promise<{ shareId: string }> }) {
  const link = await loadComparison((await params).shareId);
  if (!link) notFound();
  const [privateA, privateB] = await Promise.all([loadRunById(link.runAId), loadRunById(link.runBId)]);
  if (!privateA || !privateB) notFound();
  // Behind a share link every run is named by its share id only.
  const [a, b] = [toSharedView(privateA), toSharedView(privateB)];
  const { state, configDiff } = comparePageState(a, b);
  const attribution = await questionAttribution(privateA.id, { shared: true });
  return (
    <HydrationBoundary state={state}>
      <ComparePage
        aId={a.id}
        bId={b.id}
        configDiff={configDiff}
        shareId={link.shareId}
        readOnly
        attribution={<AttributionPanel attribution={attribution} runId={a.id} readOnly />}
      />
    </HydrationBoundary>
  );
}
