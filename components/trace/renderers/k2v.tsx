'use client';

import { ChecklistGrid } from '@/components/runs/K2vPanel';
import { Badge } from '@/components/ui/Badge';
import { byContract, type ContractViewProps } from './contract';

/** A verification recorded as trace steps (before verifications were records of their own): its grid. */
function LegacyChecklist({ output }: ContractViewProps<'verify'>) {
  return <ChecklistGrid report={output} />;
}

/** One judge call: the verdict and reason. */
function JudgeVerdict({ output, input }: ContractViewProps<'verify.judge'>) {
  return (
    <div className="space-y-1 text-sm">
      {input.text ? <p className="text-slate-800">{input.text}</p> : null}
      <p>
        <Badge tone={output.verdict === 'yes' ? 'green' : 'red'}>{output.verdict}</Badge> <span className="text-slate-700">{output.reason}</span>
      </p>
      {output.flaggedUnsupportedFacts?.length ? (
        <p className="text-xs text-amber-900">⚑ unsupported facts: {output.flaggedUnsupportedFacts.join(', ')}</p>
      ) : null}
    </div>
  );
}

export const k2vRenderers = {
  verify: byContract(['verify'], 'K2V checklist', LegacyChecklist),
  'verify.judge': byContract(['verify.judge'], 'Judge verdict', JudgeVerdict),
};
