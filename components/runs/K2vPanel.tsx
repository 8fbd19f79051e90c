'use client';

import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import type { VerificationView } from '@/lib/runs/view';
import type { K2vReport } from '@/lib/trace/steps/k2v';

const pct = (v: number) => `${Math.round(v * 100)}%`;

/** The report fields the grid reads (verifications recorded as trace steps before they were records of their own lack a version). */
export type ChecklistReport = Omit<K2vReport, 'version' | 'runId' | 'verifiedAt' | 'generalPassRate'> & { generalPassRate?: number };

/**
 * K2V's checklist grid: one row per criterion (general ones from the versioned
 * list, question-specific ones from the checklist role), the judge's yes/no and
 * reason, and criteria that state facts the question and evidence lack flagged.
 */
export function ChecklistGrid({ report }: { report: ChecklistReport }) {
  const checklist = report.criteria.filter((c) => c.source === 'question');
  const passed = checklist.filter((c) => c.verdict === 'yes').length;
  return (
    <div className="space-y-2" data-testid="k2v-grid">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone={report.passRate >= 0.5 ? 'green' : 'amber'}>
          <span data-testid="k2v-pass-rate">
            pass rate p = {pct(report.passRate)} ({passed}/{checklist.length} checklist criteria)
          </span>
        </Badge>
        {report.generalPassRate !== undefined ? <Badge tone="neutral">general criteria {pct(report.generalPassRate)} (not part of p)</Badge> : null}
        <Badge tone={report.correct === null ? 'neutral' : report.correct ? 'green' : 'red'}>
          answer {report.correct === null ? 'not scored (no gold)' : report.correct ? 'correct' : 'incorrect'}
        </Badge>
        <Badge tone={report.wellFormed ? 'green' : 'red'}>{report.wellFormed ? 'well-formed' : 'malformed'}</Badge>
        {Object.entries(report.rewards).map(([name, value]) => (
          <Badge key={name}>
            <span data-reward={name}>
              R_{name}: {value === null ? '—' : value.toFixed(2)}
            </span>
          </Badge>
        ))}
        <span className="text-slate-600">
          α = {report.alpha} · criteria v{report.criteriaVersion} · verifier: {report.verifier}
        </span>
      </div>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="w-full text-left text-xs">
          <caption className="sr-only">Checklist criteria and verdicts</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-2 py-1.5">
                Id
              </th>
              <th scope="col" className="px-2 py-1.5">
                Criterion
              </th>
              <th scope="col" className="px-2 py-1.5">
                Source
              </th>
              <th scope="col" className="px-2 py-1.5">
                Verdict
              </th>
              <th scope="col" className="px-2 py-1.5">
                Judge&apos;s reason
              </th>
            </tr>
          </thead>
          <tbody>
            {report.criteria.map((c) => (
              <tr
                key={c.id}
                className={cn('border-t border-slate-100 align-top', c.verdict === 'yes' ? 'bg-emerald-50/50' : 'bg-red-50/50')}
                data-verdict={c.verdict}
              >
                <td className="px-2 py-1 font-mono">{c.id}</td>
                <td className="px-2 py-1">
                  {c.text}
                  {c.flaggedUnsupportedFacts.length ? (
                    <p className="mt-0.5 text-amber-900" title="The criterion states facts that neither the question nor the run's evidence contains">
                      ⚑ mentions facts absent from the question and evidence: {c.flaggedUnsupportedFacts.join(', ')}
                    </p>
                  ) : null}
                </td>
                <td className="px-2 py-1">{c.source}</td>
                <td className="px-2 py-1 font-semibold whitespace-nowrap">{c.verdict === 'yes' ? '✓ yes' : '✗ no'}</td>
                <td className="px-2 py-1 text-slate-700">{c.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * K2V at the top of a verified run: the latest verification's rewards and
 * checklist grid, earlier versions one choice away. Verifications are records
 * of their own; the run they judge stays as it was frozen.
 */
export function K2vPanel({ verifications }: { verifications: readonly VerificationView[] }) {
  const [version, setVersion] = useState<number | null>(null);
  if (!verifications.length) return null;
  const shown = verifications.find((v) => v.version === version) ?? verifications[0];
  return (
    <section
      aria-labelledby="k2v-heading"
      className="space-y-2 rounded-lg border border-violet-200 bg-white p-4 shadow-sm"
      data-testid="k2v-panel"
      data-version={shown.version}
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="k2v-heading" className="text-sm font-semibold text-slate-900">
          K2V checklist verification{' '}
          <span className="font-normal text-slate-600">
            · version {shown.version} · {shown.verifiedAt.slice(0, 16).replace('T', ' ')} UTC · a record of its own: the run is unchanged
          </span>
        </h2>
        {verifications.length > 1 ? (
          <label className="flex items-center gap-1.5 text-xs text-slate-700">
            Version
            <select
              value={shown.version}
              onChange={(e) => setVersion(Number(e.target.value))}
              className="h-7 rounded-md border border-slate-300 bg-white px-1.5 text-xs"
              data-testid="k2v-version"
            >
              {verifications.map((v) => (
                <option key={v.version} value={v.version}>
                  {`v${v.version} (α = ${v.alpha}, p = ${pct(v.passRate)})`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </header>
      <ChecklistGrid report={shown} />
    </section>
  );
}
