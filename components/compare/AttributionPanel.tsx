import Link from 'next/link';
import { Badge } from '@/components/ui/Badge';
import type { QuestionAttribution } from '@/lib/runs/attribution';
import { RunGridButton } from './RunGridButton';

const BUCKET_TONE = { 'needs-KG': 'blue', 'needs-Entity': 'blue', 'needs-Parametric': 'blue', 'doc-sufficient': 'green', unresolved: 'neutral' } as const;
const CONFIG_LABEL = {
  full: 'full (every channel on, no aid)',
  'kg-off': 'kg off',
  'entity-off': 'entity off',
  'param-off': 'param off',
  'doc-only': 'doc only',
  'full+aids': 'full + Hopscope aids',
} as const;
const AIDS_TEXT = {
  'aids-help': 'Hopscope aids: the aided run is correct and the paper\u2019s is not.',
  'aids-hurt': 'Hopscope aids: the paper\u2019s run is correct and the aided one is not.',
  'aids-same': 'Hopscope aids: no change in correctness.',
  'not-run': null,
} as const;

/**
 * X-R2's attribution of the question over the switch grid: the bucket label,
 * why, and the run behind each configuration (run A's question and method).
 */
export function AttributionPanel({ attribution, runId, readOnly }: { attribution: QuestionAttribution; runId: string; readOnly: boolean }) {
  const missing = attribution.grid.filter((g) => !g.run);
  const behind = new Set(attribution.runIds);
  return (
    <section aria-labelledby="attribution-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm" data-testid="attribution-panel">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h2 id="attribution-heading" className="text-sm font-semibold text-slate-900">
          Attribution across the switch grid <span className="font-normal text-slate-600">(X-R2 buckets, {attribution.method} runs of this question)</span>
        </h2>
        <Badge tone={BUCKET_TONE[attribution.bucket]}>
          <span data-testid="attribution-bucket">{attribution.bucket}</span>
        </Badge>
      </header>
      <div className="space-y-2 px-4 py-3 text-sm">
        <p className="text-slate-700">{attribution.reason.charAt(0).toUpperCase() + attribution.reason.slice(1)}.</p>
        {AIDS_TEXT[attribution.aids] ? (
          <p className="text-slate-700" data-testid="attribution-aids" data-aids={attribution.aids}>
            {AIDS_TEXT[attribution.aids]}
          </p>
        ) : null}
        {!attribution.scored ? (
          <p className="text-xs text-amber-900">
            No run of this question is scored (no gold answer), so no bucket but “unresolved” can be given. Pick a question from a question set to attribute it.
          </p>
        ) : null}
        <table className="text-left text-xs">
          <caption className="sr-only">Runs behind each configuration</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="pr-4">
                Configuration
              </th>
              <th scope="col" className="pr-4">
                Run
              </th>
              <th scope="col">Correct</th>
            </tr>
          </thead>
          <tbody>
            {attribution.grid.map((g) => (
              <tr key={g.name} className="border-t border-slate-100" data-config={g.name}>
                <td className="pr-4">{CONFIG_LABEL[g.name]}</td>
                <td className="pr-4">
                  {g.run ? (
                    <Link href={readOnly ? `/r/${g.run.shareId}` : `/runs/${g.run.id}`} className="text-blue-800 underline">
                      {g.run.status === 'succeeded' ? 'finished' : g.run.status}
                      {behind.has(g.run.id) ? ' · used for the bucket' : ''}
                    </Link>
                  ) : (
                    <span className="text-slate-500">not run</span>
                  )}
                </td>
                <td>{g.run ? (g.run.correct === null ? 'not scored' : g.run.correct ? '✓' : '✗') : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!readOnly && missing.length ? <RunGridButton runId={runId} missing={missing.map((m) => CONFIG_LABEL[m.name])} /> : null}
      </div>
    </section>
  );
}
