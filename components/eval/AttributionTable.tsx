import type { AttributionSummary } from '@/lib/eval/jobs/buckets';
import { pct } from '@/lib/eval/jobs/format';

/** X-R2's bucketed accuracy (Table: bucket, instances, accuracy per method) and each method's own bucket sizes. */
export function AttributionTable({ attribution, methods }: { attribution: AttributionSummary; methods: string[] }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Buckets from <strong>{attribution.referenceMethod}</strong>&apos;s reruns: a question needs a channel when the full run is correct and the run with that
        channel off is wrong (priority KG &gt; Entity &gt; Parametric); it is doc-sufficient when the doc-only run is correct; otherwise unresolved. Accuracy is
        each method&apos;s full configuration on the bucket&apos;s questions.
      </p>
      <div className="overflow-x-auto">
        <table className="text-sm" data-testid="bucket-table">
          <caption className="sr-only">Bucketed accuracy</caption>
          <thead className="border-b border-slate-200 text-xs text-slate-700">
            <tr>
              <th scope="col" className="px-2 py-1 text-left font-semibold">
                Bucket
              </th>
              <th scope="col" className="px-2 py-1 text-right font-semibold">
                Questions
              </th>
              {methods.map((m) => (
                <th key={m} scope="col" className="px-2 py-1 text-right font-semibold">
                  {m} acc. %
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {attribution.bucketed.map((row) => (
              <tr key={row.bucket} className="border-t border-slate-100" data-testid="bucket-row" data-bucket={row.bucket} data-instances={row.instances}>
                <th scope="row" className="px-2 py-1 text-left font-medium">
                  {row.bucket}
                </th>
                <td className="px-2 py-1 text-right tabular-nums">{row.instances}</td>
                {methods.map((m) => (
                  <td key={m} className="px-2 py-1 text-right tabular-nums">
                    {pct(row.accuracy[m] ?? null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {methods.length > 1 ? (
        <div className="overflow-x-auto">
          <table className="text-sm">
            <caption className="mb-1 text-left text-xs font-medium text-slate-700">Bucket sizes when each method&apos;s own reruns label the questions</caption>
            <thead className="border-b border-slate-200 text-xs text-slate-700">
              <tr>
                <th scope="col" className="px-2 py-1 text-left font-semibold">
                  Method
                </th>
                {attribution.bucketed.map((b) => (
                  <th key={b.bucket} scope="col" className="px-2 py-1 text-right font-semibold">
                    {b.bucket}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {methods.map((m) => (
                <tr key={m} className="border-t border-slate-100">
                  <th scope="row" className="px-2 py-1 text-left font-medium">
                    {m}
                  </th>
                  {attribution.bucketed.map((b) => (
                    <td key={b.bucket} className="px-2 py-1 text-right tabular-nums">
                      {attribution.counts[m]?.[b.bucket] ?? 0}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
