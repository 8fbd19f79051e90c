import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ComparePage } from '@/components/compare/ComparePage';
import { comparePageState } from '@/components/compare/load';
import { loadRunById } from '@/components/runs/load';
import { AttributionPanel } from '@/components/compare/AttributionPanel';
import { questionAttribution } from '@/lib/runs/attribution';
import { shareComparison } from '@/lib/runs/comparisons';
import { ownerOf } from '@/lib/auth/access';
import { canOpenRuns, pageViewer } from '@/lib/auth/page';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Compare runs' };

interface CompareProps {
  params: Promise<{ a: string; b: string }>;
}

/** Two runs side by side; the comparison gets its permalink (/c/{shareId}) the first time the pair is compared. */
export default async function CompareRoute({ params }: CompareProps) {
  const { a: aId, b: bId } = await params;
  const viewer = await pageViewer(`/compare/${aId}/${bId}`);
  if (!(await canOpenRuns(viewer, [aId, bId]))) notFound();
  const [a, b] = await Promise.all([loadRunById(aId), loadRunById(bId)]);
  if (!a || !b) notFound();
  const [{ shareId }, attribution] = await Promise.all([shareComparison(a.id, b.id, ownerOf(viewer)), questionAttribution(a.id)]);
  const { state, configDiff } = comparePageState(a, b);
  return (
    <HydrationBoundary state={state}>
      <ComparePage
        aId={a.id}
        bId={b.id}
        configDiff={configDiff}
        shareId={shareId}
        readOnly={false}
        attribution={<AttributionPanel attribution={attribution} runId={a.id} readOnly={false} />}
      />
    </HydrationBoundary>
  );
}
