import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { loadRunById, runPageState } from '@/components/runs/load';
import { RunPage } from '@/components/runs/RunPage';
import { viewStateFromSearchParams } from '@/components/runs/view-state';
import { describeMethods } from '@/lib/methods/descriptors';
import { canOpenRuns, pageViewer } from '@/lib/auth/page';

export const dynamic = 'force-dynamic';

interface RunRouteProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export const metadata: Metadata = { title: 'Run' };

export default async function RunRoute({ params, searchParams }: RunRouteProps) {
  const { id } = await params;
  // With sign-in on, someone else's run is not found here (its share link opens it).
  const viewer = await pageViewer(`/runs/${id}`);
  const run = (await canOpenRuns(viewer, [id])) ? await loadRunById(id) : null;
  if (!run) notFound();
  const state = await runPageState(run, viewStateFromSearchParams(await searchParams));
  const methodParams = describeMethods().find((m) => m.id === run.method)?.params ?? [];
  return (
    <HydrationBoundary state={state}>
      <RunPage id={run.id} readOnly={false} methodParams={methodParams} />
    </HydrationBoundary>
  );
}
