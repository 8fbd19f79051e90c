import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { loadRunByShareId, runPageState } from '@/components/runs/load';
import { RunPage } from '@/components/runs/RunPage';
import { viewStateFromSearchParams } from '@/components/runs/view-state';
import { SHARE_ID } from '@/lib/api/share';

export const dynamic = 'force-dynamic';

interface PermalinkProps {
  params: Promise<{ shareId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

async function load(params: PermalinkProps['params']) {
  const { shareId } = await params;
  return SHARE_ID.test(shareId) ? loadRunByShareId(shareId) : null;
}

export async function generateMetadata({ params }: PermalinkProps): Promise<Metadata> {
  const run = await load(params);
  if (!run) return { title: 'Link not found' };
  const answer = run.answer ? (run.answer.abstained ? 'abstained' : run.answer.text) : run.status;
  return { title: `${run.question.slice(0, 80)}`, description: `${run.methodName}: ${answer}`.slice(0, 200) };
}

/** The permalink of a run: the frozen record, server-rendered, read-only; `?step=` and `?graph=` restore the view. */
export default async function RunPermalink({ params, searchParams }: PermalinkProps) {
  const run = await load(params);
  if (!run) notFound();
  const state = await runPageState(run, viewStateFromSearchParams(await searchParams));
  return (
    <HydrationBoundary state={state}>
      <RunPage id={run.id} readOnly />
    </HydrationBoundary>
  );
}
