import { canOpenEval, pageViewer } from '@/lib/auth/page';
import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { EvalResults } from '@/components/eval/EvalResults';
import { evalKeys } from '@/components/eval/queries';
import { Skeleton } from '@/components/ui/Skeleton';
import { EvalIdParams } from '@/lib/api/eval-schemas';
import { getEvalJobView, type EvalJobView } from '@/lib/eval/jobs';
import { NotFoundError } from '@/lib/base/errors';

interface EvalJobPageProps {
  params: Promise<{ id: string }>;
}

/** The job's view, or null for an id that is malformed or unknown (a 404, not a crash). */
async function load(params: EvalJobPageProps['params']): Promise<EvalJobView | null> {
  const parsed = EvalIdParams.safeParse(await params);
  if (!parsed.success) return null;
  try {
    return await getEvalJobView({ id: parsed.data.id });
  } catch (e) {
    if (e instanceof NotFoundError) return null;
    throw e;
  }
}

export async function generateMetadata({ params }: EvalJobPageProps): Promise<Metadata> {
  const { id } = await params;
  return { title: `Evaluation ${id.slice(0, 10)}` };
}

export default async function EvalJobPage({ params }: EvalJobPageProps) {
  const { id } = await params;
  const viewer = await pageViewer(`/eval/${id}`);
  const view = (await canOpenEval(viewer, id)) ? await load(params) : null;
  if (!view) notFound();
  const source = { kind: 'job' as const, id: view.id! };
  const queryClient = new QueryClient();
  queryClient.setQueryData(evalKeys.view(source), view);
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link href="/eval" className="text-blue-800 hover:underline">
          Evaluation
        </Link>
        <span aria-hidden className="px-1.5">
          /
        </span>
        <span>{view.name ?? view.id}</span>
      </nav>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <Suspense fallback={<Skeleton className="h-96 w-full" />}>
          <EvalResults source={source} />
        </Suspense>
      </HydrationBoundary>
    </div>
  );
}
