'use client';

import type { ComponentType, ReactNode } from 'react';
import type { StepDetail } from '@/lib/runs/view';
import { parseStepInput, parseStepOutput, type StepInput, type StepKind, type StepOutput } from '@/lib/trace/step-schemas';
import { FailedOutputSchema, SkippedOutputSchema } from '@/lib/trace/steps/common';
import { JsonView } from '../JsonView';
import type { StepRenderer, StepRendererProps, TraceContext } from './types';

/**
 * Renderers read step outputs through the step contract registry
 * (lib/trace/step-schemas.ts), never by guessing shapes: `byContract` parses a
 * step's output (and input) with its kind's schema and hands the view typed
 * data. A step that did not succeed says why; a stored output that does not
 * fit its kind (a trace older than the contract, or one recorded with a
 * contract issue) is shown as "unexpected shape" with its raw JSON below.
 */

export interface ContractViewProps<K extends StepKind> {
  output: StepOutput<K>;
  input: StepInput<K>;
  detail: StepDetail;
  ctx: TraceContext;
}

/** A renderer for the given kinds whose view gets the parsed output and input. */
export function byContract<K extends StepKind>(kinds: readonly K[], title: string, View: ComponentType<ContractViewProps<K>>): StepRenderer {
  function ContractOutput({ detail, ctx }: StepRendererProps) {
    return (
      <ParsedStep detail={detail} kinds={kinds}>
        {(output, input) => <View output={output} input={input} detail={detail} ctx={ctx} />}
      </ParsedStep>
    );
  }
  return { title, Output: ContractOutput };
}

/** A step's output and input parsed through its kind's contract, or why they cannot be shown as such. */
export function ParsedStep<K extends StepKind>({
  detail,
  kinds,
  children,
}: {
  detail: StepDetail;
  kinds: readonly K[];
  children: (output: StepOutput<K>, input: StepInput<K>) => ReactNode;
}) {
  const { kind, status } = detail.step;
  if (status === 'running') return <p className="text-sm text-slate-600">Still running…</p>;
  if (status === 'skipped') {
    const skipped = SkippedOutputSchema.safeParse(detail.step.output);
    return skipped.success ? (
      <p className="text-sm text-slate-700">Skipped: {skipped.data.reason}</p>
    ) : (
      <UnexpectedShape kind={kind} error="a skipped step without its reason" raw={detail.step.output} />
    );
  }
  if (status === 'failed') {
    const failed = FailedOutputSchema.safeParse(detail.step.output);
    return failed.success ? (
      <p className="text-sm text-red-800">Failed: {failed.data.error}</p>
    ) : (
      <UnexpectedShape kind={kind} error="a failed step without its error" raw={detail.step.output} />
    );
  }
  const ours = kinds.find((k) => k === kind);
  if (!ours) return <UnexpectedShape kind={kind} error={`no view for kind ${kind}`} raw={detail.step.output} />;
  const output = parseStepOutput(ours, detail.step.output);
  if (output.error !== null) return <UnexpectedShape kind={kind} error={output.error} raw={detail.step.output} />;
  const input = parseStepInput(ours, detail.step.input);
  if (input.error !== null) return <UnexpectedShape kind={kind} error={`input: ${input.error}`} raw={detail.step.input} />;
  return <>{children(output.data, input.data)}</>;
}

/** The stored value does not fit its kind's contract: say so, and show it raw. */
export function UnexpectedShape({ kind, error, raw }: { kind: string; error: string; raw: unknown }) {
  return (
    <div className="space-y-1" data-testid="contract-mismatch">
      <p className="text-sm text-amber-900">
        Unexpected shape for a <span className="font-mono">{kind}</span> step (it does not fit the step contract), so it is shown as raw JSON below.{' '}
        <span className="text-xs text-amber-800">{error.split('\n').slice(0, 2).join(' ')}</span>
      </p>
      <JsonView value={raw} label="Raw step output" className="max-h-[24rem]" />
    </div>
  );
}
