import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { EvalResults } from '@/components/eval/EvalResults';
import { evalKeys } from '@/components/eval/queries';
import { Skeleton } from '@/components/ui/Skeleton';
import { EvalShareParams } from '@/lib/api/eval-schemas';
import { getEvalJobView, type EvalJobView } from '@/lib/eval/jobs';
import { NotFoundError } from '@/lib/base/errors';

export const metadata: Metadata = { title: 'Shared evaluation' };

interface SharedEvalPageProps {
  params: Promise<{ shareId: string }>;
}

async function load(params: SharedEvalPageProps['params']): Promise<EvalJobView | null> {
  const parsed = EvalShareParams.safeParse(await params);
  if (!parsed.success) return null;
  try {
    return await getEvalJobView({ shareId: parsed.data.shareId });
  } catch (e) {
    if (e instanceof NotFoundError) return null;
    throw e;
  }
}

/** The read-only permalink of an evaluation: the same tables and plots, without the job's controls. */
export default async function SharedEvalPage({ params }: SharedEvalPageProps) {
  const view = await load(params);
  if (!view) notFound();
  const source = { kind: 'share' as const, shareId: view.shareId };
  const queryClient = new QueryClient();
  queryClient.setQueryData(evalKeys.view(source), view);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <Suspense fallback={<Skeleton className="h-96 w-full" />}>
        <EvalResults source={source} />
      </Suspense>
    </HydrationBoundary>
  );
}
