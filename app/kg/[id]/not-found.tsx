import Link from 'next/link';
import { KgSearch } from '@/components/kg/KgSearch';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';

export default async function EntityNotFound() {
  const { kinds } = await loadMetagraph();
  return (
    <section className="mx-auto max-w-2xl space-y-4 py-10" data-testid="entity-not-found">
      <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">Entity not found</h1>
      <p className="text-slate-700">
        No node of the knowledge graph has this id. Ids look like <code className="font-mono text-sm">Gene::3569</code> or{' '}
        <code className="font-mono text-sm">Disease::DOID:2377</code>. Search for the entity by name instead:
      </p>
      <KgSearch kinds={kinds ?? []} />
      <p>
        <Link href="/kg" className="text-sm font-medium text-blue-800 underline">
          Back to the knowledge graph browser
        </Link>
      </p>
    </section>
  );
}
