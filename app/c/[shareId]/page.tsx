import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ComparePage } from '@/components/compare/ComparePage';
import { comparePageState } from '@/components/compare/load';
import { loadRunById } from '@/components/runs/load';
import { AttributionPanel } from '@/components/compare/AttributionPanel';
import { questionAttribution } from '@/lib/runs/attribution';
import { getComparison } from '@/lib/runs/comparisons';
import { NotFoundError } from '@/lib/runs/errors';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Shared comparison' };

const SHARE_ID = /^[A-Za-z0-9_-]{16,64}$/;

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
  const [a, b] = await Promise.all([loadRunById(link.runAId), loadRunById(link.runBId)]);
  if (!a || !b) notFound();
  const { state, configDiff } = comparePageState(a, b);
  const attribution = await questionAttribution(a.id);
  return (
    <HydrationBoundary state={state}>
      <ComparePage aId={a.id} bId={b.id} configDiff={configDiff} shareId={link.shareId} readOnly attribution={<AttributionPanel attribution={attribution} runId={a.id} readOnly />} />
    </HydrationBoundary>
  );
}
