'use client';

import { ChecklistGrid } from '@/components/runs/K2vPanel';
import { Badge } from '@/components/ui/Badge';
import { K2vReportSchema } from '@/lib/verify/report';
import type { StepRenderer, StepRendererProps } from './types';

const LegacyReportSchema = K2vReportSchema.omit({ version: true, runId: true, verifiedAt: true }).extend({ generalPassRate: K2vReportSchema.shape.generalPassRate.optional() });

/** A verification recorded as trace steps (before verifications were records of their own): its grid. */
function LegacyChecklist({ detail }: StepRendererProps) {
  const report = LegacyReportSchema.safeParse(detail.step.output);
  if (!report.success) return <p className="text-sm text-slate-600">{detail.step.status === 'running' ? 'The verifier is still judging…' : 'No checklist report recorded.'}</p>;
  return <ChecklistGrid report={report.data} />;
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
  verify: { title: 'K2V checklist', Output: LegacyChecklist },
  'verify.judge': { title: 'Judge verdict', Output: JudgeVerdict },
};
