import { connection } from 'next/server';
import { Suspense } from 'react';
import { AskForm } from '@/components/ask/AskForm';
import { RecentRuns } from '@/components/runs/RecentRuns';
import { Skeleton } from '@/components/ui/Skeleton';
import { recentQuestionSets } from '@/lib/eval/question-picker';
import { pageViewer } from '@/lib/auth/page';
import { modelBackendConfigFromEnv } from '@/lib/llm/config';
import { loadedGraphName } from '@/lib/kg/stats';
import { describeMethods } from '@/lib/methods/descriptors';
import { OFFLINE_LABEL } from '@/components/runs/format';

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const scope = (await searchParams).runs === 'all' ? 'all' : 'browser';
  await connection(); // runs and sets are read per request, never at build time
  const viewer = await pageViewer('/');
  const [sets, methods, graph] = await Promise.all([recentQuestionSets(viewer), Promise.resolve(describeMethods()), loadedGraphName()]);
  const configured = modelBackendConfigFromEnv();
  const openaiAvailable = configured.kind !== 'offline';
  const autoBackend = configured.kind === 'openai' ? `${configured.model} (configured endpoint)` : OFFLINE_LABEL;
  return (
    <div className="space-y-5">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Ask a biomedical question</h1>
        <p className="max-w-3xl text-slate-700">
          Run one of the reasoning methods over the knowledge graph (<span data-testid="loaded-graph">{graph}</span>) and the document corpus, then read its
          trace hop by hop: what it linked, retrieved, selected and concluded, with the provenance of every piece of evidence. Flip knowledge switches and rerun
          to see what each source contributes.
        </p>
      </header>
      <AskForm
        methods={methods}
        autoBackend={autoBackend}
        openaiAvailable={openaiAvailable}
        sets={sets}
        aside={
          <Suspense fallback={<Skeleton className="h-64 w-full" />}>
            <RecentRuns scope={scope} />
          </Suspense>
        }
      />
    </div>
  );
}
