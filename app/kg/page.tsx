import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { Suspense } from 'react';
import { KgSearch } from '@/components/kg/KgSearch';
import { KgStatsSummary } from '@/components/kg/KgStatsSummary';
import { KindBadge } from '@/components/kg/KindBadge';
import { kgNodeHref } from '@/components/kg/paths';
import { Skeleton } from '@/components/ui/Skeleton';
import { loadedGraphName } from '@/lib/kg/stats';
import { getNodes } from '@/lib/kg';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';

export const metadata: Metadata = { title: 'Knowledge graph' };

const EXAMPLES = [
  { id: 'Disease::DOID:2377', name: 'multiple sclerosis', kind: 'Disease' },
  { id: 'Gene::3569', name: 'IL6', kind: 'Gene' },
  { id: 'Compound::DB00331', name: 'Metformin', kind: 'Compound' },
  { id: 'Disease::DOID:9352', name: 'type 2 diabetes mellitus', kind: 'Disease' },
] as const;

export default async function KgBrowserPage() {
  await connection(); // statistics are read per request, never at build time
  const [graph, { kinds }, present] = await Promise.all([loadedGraphName(), loadMetagraph(), getNodes(EXAMPLES.map((e) => e.id))]);
  // Hetionet's examples; another graph (PrimeKG) has none of them.
  const examples = EXAMPLES.filter((e) => present.some((n) => n.id === e.id));
  return (
    <section className="mx-auto max-w-3xl space-y-6 py-4">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Knowledge graph</h1>
        <p className="text-slate-700">
          Look up an entity of the knowledge graph (<span data-testid="loaded-graph">{graph}</span>), read its profile and relation counts, and walk its
          neighbourhood. Use ↑ and ↓ to move through the suggestions and Enter to open one.
        </p>
      </header>
      <KgSearch kinds={kinds ?? []} size="lg" autoFocus />
      {examples.length > 0 && (
        <div className="space-y-2">
          <h2 className="text-sm font-semibold text-slate-700">Examples</h2>
          <ul className="flex flex-wrap gap-2">
            {examples.map((e) => (
              <li key={e.id}>
                <Link
                  href={kgNodeHref(e.id)}
                  className="inline-flex items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-1.5 text-sm text-slate-800 shadow-sm hover:border-slate-300 hover:bg-slate-50"
                >
                  {e.name}
                  <KindBadge kind={e.kind} />
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="space-y-2 border-t border-slate-200 pt-4">
        <h2 className="text-sm font-semibold text-slate-700">Loaded graph</h2>
        <Suspense fallback={<Skeleton className="h-12 w-full" />}>
          <KgStatsSummary />
        </Suspense>
      </div>
    </section>
  );
}
