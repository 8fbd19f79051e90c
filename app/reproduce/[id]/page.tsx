import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { AutoRefresh } from '@/components/reproduce/AutoRefresh';
import { Card } from '@/components/ui/Card';
import { EvalIdParams } from '@/lib/api/eval-schemas';
import { canOpenEval, pageViewer } from '@/lib/auth/page';
import { reproductionView, type ReproductionView } from '@/lib/reproduce';
import { NotFoundError } from '@/lib/base/errors';

export const metadata: Metadata = { title: 'Reproduction' };

async function load(params: Promise<{ id: string }>): Promise<ReproductionView | null> {
  const parsed = EvalIdParams.safeParse(await params);
  if (!parsed.success) return null;
  try {
    return await reproductionView(parsed.data.id);
  } catch (e) {
    if (e instanceof NotFoundError) return null;
    throw e;
  }
}

const fmt = (v: number | null | undefined, percent?: boolean) =>
  v === null || v === undefined ? '–' : percent ? `${(100 * v).toFixed(1)}` : Number.isInteger(v) ? String(v) : v.toFixed(2);

export default async function ReproductionPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  const viewer = await pageViewer(`/reproduce/${id}`);
  const view = (await canOpenEval(viewer, id)) ? await load(params) : null;
  if (!view) notFound();
  const running = view.job.status === 'queued' || view.job.status === 'running';
  const engine = view.job.offline ? 'offline engine (no language model)' : view.job.model;
  const paperColumns = [...new Set(view.rows.flatMap((r) => Object.keys(r.paper)))];
  return (
    <section className="space-y-4">
      {running ? <AutoRefresh /> : null}
      <header className="space-y-1">
        <p className="text-sm">
          <Link href="/reproduce" className="text-blue-700 underline">
            ← All tables
          </Link>
        </p>
        <h1 className="text-2xl font-semibold text-slate-900">
          {view.paper}: {view.title}
        </h1>
        <p className="text-sm text-slate-700">
          Set <strong>{view.job.set}</strong> · ours from the <strong data-testid="engine">{engine}</strong> · job{' '}
          <Link className="text-blue-700 underline" href={`/eval/${view.job.id}`}>
            {view.job.id}
          </Link>{' '}
          · <span data-testid="job-status">{view.job.status}</span>, {view.job.progress.done}/{view.job.progress.total} runs
        </p>
        <p className="max-w-4xl text-sm text-slate-600">{view.note}</p>
      </header>
      <Card title="Ours beside the paper's" headingId="reproduction-table">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-labelledby="reproduction-table">
            <thead>
              <tr className="border-b border-slate-200 text-xs text-slate-600">
                <th className="px-2 py-1">Row</th>
                <th className="px-2 py-1">Configuration</th>
                {view.metrics.map((m) => (
                  <th key={m.key} className="px-2 py-1">
                    {m.label} <span className="font-normal">(ours{view.job.offline ? ', offline engine' : ''})</span>
                  </th>
                ))}
                <th className="px-2 py-1">n</th>
                {paperColumns.map((c) => (
                  <th key={c} className="bg-slate-50 px-2 py-1">
                    {c} <span className="font-normal">(paper)</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {view.rows.map((row) => (
                <tr key={`${row.config.method} ${row.label}`} className="border-b border-slate-100 align-top" data-row={row.label}>
                  <th scope="row" className="px-2 py-1 font-medium text-slate-900">
                    {row.label}
                  </th>
                  <td className="px-2 py-1 text-xs text-slate-600">
                    {row.config.method} · {row.config.switches}
                    {row.config.kgShuffle ? ' · kgShuffle' : ''}
                    {Object.keys(row.config.overrides).length ? ` · ${JSON.stringify(row.config.overrides)}` : ''}
                  </td>
                  {view.metrics.map((m) => {
                    const figure =
                      row.estimated.includes(m.key) && row.ours[m.key] != null ? (
                        <span title="estimate: chars/4, the backend reported no token counts" data-estimate="true">
                          ≈{fmt(row.ours[m.key], m.percent)}
                        </span>
                      ) : (
                        fmt(row.ours[m.key], m.percent)
                      );
                    return (
                      <td key={m.key} className="px-2 py-1 tabular-nums">
                        {row.runs.length ? (
                          <Link className="text-blue-700 underline" href={`/runs/${row.runs[0]}`} data-metric={m.key}>
                            {figure}
                          </Link>
                        ) : (
                          figure
                        )}
                      </td>
                    );
                  })}
                  <td className="px-2 py-1 tabular-nums">
                    {row.runs.length ? (
                      <details>
                        <summary className="cursor-pointer">{row.n}</summary>
                        <ul className="text-xs">
                          {row.runs.map((id, i) => (
                            <li key={id}>
                              <Link className="text-blue-700 underline" href={`/runs/${id}`}>
                                run {i + 1}
                              </Link>
                            </li>
                          ))}
                        </ul>
                      </details>
                    ) : (
                      row.n
                    )}
                  </td>
                  {paperColumns.map((c) => (
                    <td key={c} className="bg-slate-50 px-2 py-1 tabular-nums text-slate-700">
                      {row.paper[c] ?? '–'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {view.rows.some((r) => r.estimated.length) ? (
            <p className="mt-2 text-xs text-slate-600">
              ≈ an estimate: tokens counted as characters / 4 where the backend reported none (the offline engine never does).
            </p>
          ) : null}
        </div>
      </Card>
    </section>
  );
}
