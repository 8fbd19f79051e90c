import type { CellScore } from '@/lib/eval/jobs/aggregate';
import { num, pct } from '@/lib/eval/jobs/format';

const TH = 'px-2 py-1.5 text-right font-semibold whitespace-nowrap';
const TD = 'px-2 py-1 text-right tabular-nums';

/** Per method × configuration: accuracy, abstain rate, grounding and mean cost per run (X-R2's Table 1/2 columns and more). */
export function ScoreTable({ scores }: { scores: CellScore[] }) {
  const firstOfMethod = (i: number) => i === 0 || scores[i - 1].method !== scores[i].method;
  const configsOf = (method: string) => scores.filter((s) => s.method === method).length;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="score-table">
        <caption className="sr-only">Scores per method and configuration</caption>
        <thead className="border-b border-slate-200 text-xs text-slate-700">
          <tr>
            <th scope="col" className="px-2 py-1.5 text-left font-semibold">
              Method
            </th>
            <th scope="col" className="px-2 py-1.5 text-left font-semibold">
              Configuration
            </th>
            <th scope="col" className={TH}>
              Runs
            </th>
            <th scope="col" className={TH}>
              Accuracy %
            </th>
            <th scope="col" className={TH} title="Scored runs that answered and were wrong (abstentions and failed runs are counted apart)">
              Wrong %
            </th>
            <th scope="col" className={TH} title="Finished runs that abstained: they count against accuracy, but are not wrong answers">
              Abstain %
            </th>
            <th scope="col" className={TH} title="Share of answer claims linked to evidence, over answers that made claims">
              Grounding %
            </th>
            <th scope="col" className={TH}>
              Errors
            </th>
            <th scope="col" className={TH} title="Trace steps executed per run">
              Steps
            </th>
            <th scope="col" className={TH} title="Loop iterations the method reports (X-R2's Avg. Steps); — for one-pass methods">
              Iterations
            </th>
            <th scope="col" className={TH}>
              Calls
            </th>
            <th scope="col" className={TH} title="Tokens per run; ≈ marks estimates where the backend (the offline engine) reported none">
              Tokens{scores.some((s) => s.tokensEstimated) ? ' (≈ estimated)' : ''}
            </th>
            <th scope="col" className={TH}>
              Time (s)
            </th>
          </tr>
        </thead>
        <tbody>
          {scores.map((s, i) => (
            <tr
              key={`${s.method} ${s.config}`}
              data-testid="score-row"
              data-method={s.method}
              data-config={s.config}
              data-accuracy={s.accuracy ?? ''}
              className={firstOfMethod(i) ? 'border-t border-slate-200' : undefined}
            >
              {firstOfMethod(i) ? (
                <th scope="rowgroup" rowSpan={configsOf(s.method)} className="px-2 py-1 text-left align-top font-medium text-slate-900">
                  {s.method}
                </th>
              ) : null}
              <td className="px-2 py-1 font-mono text-xs">{s.config}</td>
              <td className={TD}>
                {s.finished}/{s.items}
              </td>
              <td className={`${TD} font-semibold text-slate-900`}>{pct(s.accuracy)}</td>
              <td className={TD} data-testid="score-wrong">
                {pct(s.scored ? s.wrong / s.scored : null)}
              </td>
              <td className={TD}>{pct(s.abstainRate)}</td>
              <td className={TD}>{pct(s.grounding)}</td>
              <td className={s.errors ? `${TD} text-red-800` : TD}>{s.errors}</td>
              <td className={TD}>{num(s.avgSteps)}</td>
              <td className={TD}>{num(s.avgIterations, 2)}</td>
              <td className={TD}>{num(s.avgCalls)}</td>
              <td
                className={TD}
                data-testid="score-tokens"
                data-estimated={s.tokensEstimated ? 'true' : 'false'}
                title={s.tokensEstimated ? 'Estimated (about four characters per token): the backend reported no token counts' : undefined}
              >
                {s.avgTokensIn === null ? '—' : `${s.tokensEstimated ? '≈' : ''}${Math.round((s.avgTokensIn ?? 0) + (s.avgTokensOut ?? 0))}`}
              </td>
              <td className={TD}>{s.avgWallMs === null ? '—' : (s.avgWallMs / 1000).toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
