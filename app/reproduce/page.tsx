import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { ReproduceStartForm } from '@/components/reproduce/ReproduceStartForm';
import { Card } from '@/components/ui/Card';
import { ownerOf } from '@/lib/auth/access';
import { pageViewer } from '@/lib/auth/page';
import { listQuestionSets } from '@/lib/eval/sets';
import { CATALOGUE, listReproductions } from '@/lib/reproduce';
import { startReproductionAction } from './actions';

export const metadata: Metadata = { title: 'Reproduce' };

export default async function ReproducePage() {
  await connection(); // sets and jobs are read per request
  const viewer = await pageViewer('/reproduce');
  const [sets, jobs] = await Promise.all([listQuestionSets(viewer), listReproductions(undefined, ownerOf(viewer))]);
  const options = sets.map((s) => ({ name: s.name, total: s.counts.total }));
  return (
    <section className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Reproduce the papers</h1>
        <p className="max-w-3xl text-slate-700">
          Each seed paper&apos;s ablation and component tables as experiments: pick a question set and run a table in one click. Its rows run as one evaluation
          job (resumable); the table fills in beside the paper&apos;s own figures, and every cell links to its runs.
        </p>
      </header>
      <div className="space-y-4">
        {CATALOGUE.map((table) => (
          <Card key={table.id} title={`${table.paper}: ${table.title}`} headingId={`table-${table.id}`}>
            <div className="space-y-3" data-table={table.id}>
              <p className="text-sm text-slate-700">{table.note}</p>
              <p className="text-xs text-slate-600">Rows: {table.rows.map((r) => r.label).join(' · ')}</p>
              <ReproduceStartForm table={table.id} title={`${table.paper}: ${table.title}`} sets={options} action={startReproductionAction} />
              {jobs.some((j) => j.table === table.id) ? (
                <ul className="text-xs text-slate-700">
                  {jobs
                    .filter((j) => j.table === table.id)
                    .slice(0, 5)
                    .map((j) => (
                      <li key={j.id}>
                        <Link className="text-blue-700 underline" href={`/reproduce/${j.id}`}>
                          on {j.set}
                        </Link>{' '}
                        — {j.status}, {j.done}/{j.total} runs, {new Date(j.createdAt).toISOString().slice(0, 16).replace('T', ' ')}
                      </li>
                    ))}
                </ul>
              ) : null}
            </div>
          </Card>
        ))}
      </div>
    </section>
  );
}
