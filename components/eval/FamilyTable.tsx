import type { FamilyTable as FamilyTableData } from '@/lib/eval/jobs/aggregate';
import { pct } from '@/lib/eval/jobs/format';

const TYPE_LABELS: Record<string, string> = { mcq: 'MCQ', open: 'Open', count: 'CountEx', yesno: 'Yes/no', list: 'List' };

/** Accuracy per family and answer type, the family average and BioMedHop's Overall Avg. */
export function FamilyTable({ table }: { table: FamilyTableData }) {
  const { columns, rows } = table;
  const withAvg = (types: string[]) => types.length > 1;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="family-table">
        <caption className="sr-only">Accuracy per family and answer type</caption>
        <thead className="text-xs text-slate-700">
          <tr className="border-b border-slate-100">
            <th scope="col" rowSpan={2} className="px-2 py-1 text-left align-bottom font-semibold">
              Method
            </th>
            <th scope="col" rowSpan={2} className="px-2 py-1 text-left align-bottom font-semibold">
              Configuration
            </th>
            {columns.map((c) => (
              <th
                key={c.family}
                scope="colgroup"
                colSpan={c.answerTypes.length + (withAvg(c.answerTypes) ? 1 : 0)}
                className="border-l border-slate-200 px-2 py-1 text-center font-semibold"
              >
                {c.family}
              </th>
            ))}
            <th
              scope="col"
              rowSpan={2}
              className="border-l border-slate-200 px-2 py-1 text-right align-bottom font-semibold"
              title="Mean of the family averages"
            >
              Overall Avg
            </th>
          </tr>
          <tr className="border-b border-slate-200">
            {columns.flatMap((c) => [
              ...c.answerTypes.map((t, i) => (
                <th key={`${c.family} ${t}`} scope="col" className={`px-2 py-1 text-right font-medium ${i === 0 ? 'border-l border-slate-200' : ''}`}>
                  {TYPE_LABELS[t] ?? t}
                </th>
              )),
              ...(withAvg(c.answerTypes)
                ? [
                    <th key={`${c.family} avg`} scope="col" className="px-2 py-1 text-right font-medium">
                      Avg
                    </th>,
                  ]
                : []),
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={`${r.method} ${r.config}`}
              className="border-t border-slate-100"
              data-testid="family-row"
              data-method={r.method}
              data-config={r.config}
              data-overall={r.overallAvg ?? ''}
            >
              <th scope="row" className="px-2 py-1 text-left font-medium text-slate-900">
                {r.method}
              </th>
              <td className="px-2 py-1 font-mono text-xs">{r.config}</td>
              {columns.flatMap((c) => [
                ...c.answerTypes.map((t, i) => (
                  <td key={`${c.family} ${t}`} className={`px-2 py-1 text-right tabular-nums ${i === 0 ? 'border-l border-slate-200' : ''}`}>
                    {pct(r.cells[c.family]?.[t] ?? null)}
                  </td>
                )),
                ...(withAvg(c.answerTypes)
                  ? [
                      <td key={`${c.family} avg`} className="px-2 py-1 text-right font-medium tabular-nums">
                        {pct(r.familyAvg[c.family] ?? null)}
                      </td>,
                    ]
                  : []),
              ])}
              <td className="border-l border-slate-200 px-2 py-1 text-right font-semibold tabular-nums text-slate-900">{pct(r.overallAvg)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
