'use client';

import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import type { StepRenderer, StepRendererProps } from './types';

interface CriterionData {
  id: string;
  text: string;
  source: 'general' | 'question';
  verdict: 'yes' | 'no';
  reason: string;
  flaggedUnsupportedFacts: string[];
}

interface ReportData {
  criteria: CriterionData[];
  passRate: number;
  correct: boolean | null;
  wellFormed: boolean;
  alpha: number;
  rewards: Record<string, number | null>;
  criteriaVersion: number;
  verifier: string;
}

function isReport(v: unknown): v is ReportData {
  return typeof v === 'object' && v !== null && Array.isArray((v as ReportData).criteria) && typeof (v as ReportData).passRate === 'number';
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

/**
 * K2V's checklist grid: one row per criterion (general ones from the versioned
 * list, question-specific ones from the checklist role), the judge's yes/no and
 * reason, and criteria that state facts the question and evidence lack flagged.
 */
function ChecklistGrid({ detail }: StepRendererProps) {
  const report = detail.step.output;
  if (!isReport(report)) return <p className="text-sm text-slate-600">{detail.step.status === 'running' ? 'The verifier is still judging…' : 'No checklist report recorded.'}</p>;
  const passed = report.criteria.filter((c) => c.verdict === 'yes').length;
  return (
    <div className="space-y-2" data-testid="k2v-grid">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone={report.passRate >= 0.5 ? 'green' : 'amber'}>
          pass rate p = {pct(report.passRate)} ({passed}/{report.criteria.length})
        </Badge>
        <Badge tone={report.correct === null ? 'neutral' : report.correct ? 'green' : 'red'}>
          answer {report.correct === null ? 'not scored (no gold)' : report.correct ? 'correct' : 'incorrect'}
        </Badge>
        <Badge tone={report.wellFormed ? 'green' : 'red'}>{report.wellFormed ? 'well-formed' : 'malformed'}</Badge>
        {Object.entries(report.rewards).map(([name, value]) => (
          <Badge key={name}>
            {name}: {value === null ? '—' : value.toFixed(2)}
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
              <th scope="col" className="px-2 py-1.5">Id</th>
              <th scope="col" className="px-2 py-1.5">Criterion</th>
              <th scope="col" className="px-2 py-1.5">Source</th>
              <th scope="col" className="px-2 py-1.5">Verdict</th>
              <th scope="col" className="px-2 py-1.5">Judge&apos;s reason</th>
            </tr>
          </thead>
          <tbody>
            {report.criteria.map((c) => (
              <tr key={c.id} className={cn('border-t border-slate-100 align-top', c.verdict === 'yes' ? 'bg-emerald-50/50' : 'bg-red-50/50')} data-verdict={c.verdict}>
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
                <td className="px-2 py-1 font-semibold">{c.verdict === 'yes' ? '✓ yes' : '✗ no'}</td>
                <td className="px-2 py-1 text-slate-700">{c.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** One judge call: the verdict and reason. */
function JudgeVerdict({ detail }: StepRendererProps) {
  const out = detail.step.output as { verdict?: string; reason?: string; flaggedUnsupportedFacts?: string[] } | null;
  const input = detail.step.input as { text?: string; source?: string } | null;
  if (!out?.verdict) return <p className="text-sm text-slate-600">No verdict recorded.</p>;
  return (
    <div className="space-y-1 text-sm">
      {input?.text ? <p className="text-slate-800">{input.text}</p> : null}
      <p>
        <Badge tone={out.verdict === 'yes' ? 'green' : 'red'}>{out.verdict}</Badge> <span className="text-slate-700">{out.reason}</span>
      </p>
      {out.flaggedUnsupportedFacts?.length ? <p className="text-xs text-amber-900">⚑ unsupported facts: {out.flaggedUnsupportedFacts.join(', ')}</p> : null}
    </div>
  );
}

export const k2vRenderers: Record<string, StepRenderer> = {
  verify: { title: 'K2V checklist', Output: ChecklistGrid },
  'verify.judge': { title: 'Judge verdict', Output: JudgeVerdict },
};
