import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { loadRunById, runPageState } from '@/components/runs/load';
import { RunPage } from '@/components/runs/RunPage';
import { viewStateFromSearchParams } from '@/components/runs/view-state';
import { describeMethods } from '@/lib/methods/descriptors';

export const dynamic = 'force-dynamic';

interface RunRouteProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: RunRouteProps): Promise<Metadata> {
  const run = await loadRunById((await params).id);
  return { title: run ? `Run: ${run.question.slice(0, 80)}` : 'Run not found' };
}

export default async function RunRoute({ params, searchParams }: RunRouteProps) {
  const run = await loadRunById((await params).id);
  if (!run) notFound();
  const state = await runPageState(run, viewStateFromSearchParams(await searchParams));
  const methodParams = describeMethods().find((m) => m.id === run.method)?.params ?? [];
  return (
    <HydrationBoundary state={state}>
      <RunPage id={run.id} readOnly={false} methodParams={methodParams} />
    </HydrationBoundary>
  );
}
