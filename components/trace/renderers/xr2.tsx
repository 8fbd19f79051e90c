'use client';

import { useQueries } from '@tanstack/react-query';
import { stepDetailQueryOptions } from '@/components/runs/queries';
import { EvidenceChip, NodeLink } from '@/components/runs/EvidenceBits';
import { Badge } from '@/components/ui/Badge';
import { Skeleton } from '@/components/ui/Skeleton';
import { byContract, type ContractViewProps } from './contract';
import type { StepRenderer } from './types';

/*
 * X-R2 (xr2.txt) step views: the iteration as a tree of decomposition,
 * extraction, KG evidence, parametric claims, intermediate answer and the
 * check verdict with its action. Outputs are read through their step contracts.
 */

function List({ title, items }: { title: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <div>
      <p className="text-xs font-semibold text-slate-700">{title}</p>
      <ul className="list-disc pl-5 text-sm text-slate-800">
        {items.map((x, i) => (
          <li key={i}>{x}</li>
        ))}
      </ul>
    </div>
  );
}

function Decomposition({ output: o }: ContractViewProps<'xr2.decompose'>) {
  return (
    <div className="space-y-1">
      <p className="text-sm text-slate-900">
        <span className="font-semibold">Current step question: </span>
        {o.current}
      </p>
      <List title="Subquestions" items={o.subquestions} />
      <List title="Constraints" items={o.constraints} />
      <List title="Required evidence" items={o.required_evidence} />
    </div>
  );
}

function Extraction({ output: o }: ContractViewProps<'xr2.extract'>) {
  return (
    <div className="space-y-1 text-sm">
      <p>
        <span className="font-semibold">Entities E_t: </span>
        {o.linked.length
          ? o.linked.map((l, i) => (
              <span key={l.nodeId}>
                {i ? ', ' : ''}
                <NodeLink id={l.nodeId} name={l.name} /> <span className="text-xs text-slate-500">({l.kind})</span>
              </span>
            ))
          : 'none linked'}
      </p>
      {o.relations.length ? (
        <table className="text-left text-xs">
          <caption className="sr-only">Relation and constraint cues R_t</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="pr-3">
                Cue
              </th>
              <th scope="col" className="pr-3">
                Entity
              </th>
              <th scope="col" className="pr-3">
                Metaedges
              </th>
              <th scope="col" className="pr-3">
                Direction
              </th>
              <th scope="col" className="pr-3">
                Target kind
              </th>
              <th scope="col">Negated</th>
            </tr>
          </thead>
          <tbody>
            {o.relations.map((r, i) => (
              <tr key={i} className="border-t border-slate-100">
                <td className="pr-3">“{r.cue ?? ''}”</td>
                <td className="pr-3">{r.entity}</td>
                <td className="pr-3 font-mono">{r.metaedges.join(', ')}</td>
                <td className="pr-3">{r.direction}</td>
                <td className="pr-3">{r.targetKind ?? ''}</td>
                <td>{r.negated ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="text-xs text-slate-600">
        Answer kind: {o.answerKind ?? '—'} · output format: {o.outputFormat}
        {o.unresolved.length ? ` · unresolved: ${o.unresolved.join(', ')}` : ''}
      </p>
    </div>
  );
}

function KgEvidence({ output: o, ctx }: ContractViewProps<'xr2.kg'>) {
  const ids = o.units.flatMap((u) => u.lines.map((l) => l.id));
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">
        {o.units.length} top-K unit{o.units.length === 1 ? '' : 's'} into the prompt ({ids.length} lines); the rest stay in the trace as candidates.
        {o.notes.length ? ` ${o.notes.join(' ')}` : ''}
      </p>
      <div className="flex flex-wrap gap-1">
        {ids.map((id) => (
          <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
        ))}
      </div>
    </div>
  );
}

function Claims({ output: o, ctx }: ContractViewProps<'xr2.recall'>) {
  return o.claims.length ? (
    <ul className="list-disc pl-5 text-sm">
      {o.claims.map((c) => {
        const confidence = ctx.evidenceById.get(c.id)?.scores?.confidence;
        return (
          <li key={c.id}>
            {c.text} {typeof confidence === 'number' ? <span className="text-xs text-slate-500">(confidence {confidence.toFixed(2)})</span> : null}
          </li>
        );
      })}
    </ul>
  ) : (
    <p className="text-sm text-slate-600">{o.note ?? 'No parametric claims.'}</p>
  );
}

function IntermediateAnswer({ output: o, ctx }: ContractViewProps<'xr2.reason'>) {
  return (
    <div className="space-y-1 text-sm">
      <p>
        <span className="font-semibold">A_t: </span>
        {o.abstain ? 'abstained' : o.answer.length ? o.answer.join('; ') : '—'}
        {o.count !== null ? ` (count ${o.count})` : ''}
      </p>
      <div className="flex flex-wrap gap-1">
        {o.evidenceIds.map((id) => (
          <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
        ))}
      </div>
    </div>
  );
}

function CheckVerdict({ output: { verdict: v, action } }: ContractViewProps<'xr2.check'>) {
  const flag = (name: string, value: boolean) => <Badge tone={value ? 'green' : 'amber'}>{`${name}: ${value ? 'yes' : 'no'}`}</Badge>;
  return (
    <div className="space-y-1 text-sm" data-testid="check-verdict">
      <p className="flex flex-wrap items-center gap-1.5">
        {flag('stop', v.stop)}
        {flag('sufficient', v.sufficient)}
        {flag('consistent', v.consistent)}
        <span className="text-xs text-slate-700">
          action: <strong>{action === 'stop' ? 'stop and answer' : action}</strong>
        </span>
      </p>
      <p className="text-slate-700">{v.reason}</p>
      {v.missing.length ? <List title="Missing (the next decomposition closes this gap)" items={v.missing} /> : null}
    </div>
  );
}

const PARTS: { kind: string; renderer: StepRenderer }[] = [
  { kind: 'xr2.decompose', renderer: byContract(['xr2.decompose'], 'Decomposition', Decomposition) },
  { kind: 'xr2.extract', renderer: byContract(['xr2.extract'], 'Extraction: entities and relation cues', Extraction) },
  { kind: 'xr2.kg', renderer: byContract(['xr2.kg'], 'KG evidence', KgEvidence) },
  { kind: 'xr2.recall', renderer: byContract(['xr2.recall'], 'Parametric claims', Claims) },
  { kind: 'xr2.reason', renderer: byContract(['xr2.reason'], 'Intermediate answer', IntermediateAnswer) },
  { kind: 'xr2.check', renderer: byContract(['xr2.check'], 'Check verdict and action', CheckVerdict) },
];

/** One X-R2 iteration as its tree: decomposition → extraction → KG evidence ‖ parametric claims → answer → check + action. */
function IterationTree({ output, input, ctx }: ContractViewProps<'xr2.iteration'>) {
  const children = ctx.node.children.filter((c) => PARTS.some((p) => p.kind === c.step.kind));
  const details = useQueries({ queries: children.map((c) => stepDetailQueryOptions(ctx.run, c.step.id, c.step.status)) });
  return (
    <div className="space-y-2" data-testid="iteration-tree">
      <p className="text-xs text-slate-600">
        Iteration {input.t} of at most {input.tMax}
        {output.action ? ` · ended with: ${output.action}` : ''}
      </p>
      <ol className="space-y-2 border-l-2 border-slate-200 pl-3">
        {children.map((c, i) => {
          const part = PARTS.find((p) => p.kind === c.step.kind)!;
          const q = details[i];
          return (
            <li key={c.step.id}>
              <button
                type="button"
                className="text-xs font-semibold tracking-wide text-slate-700 uppercase hover:text-blue-800"
                onClick={() => ctx.selectStep(c.step.ordinal)}
              >
                {part.renderer.title}
              </button>
              <div className="mt-0.5">
                {q.data ? (
                  <part.renderer.Output detail={q.data} ctx={ctx} />
                ) : q.isError ? (
                  <p className="text-xs text-red-800">Could not load this step.</p>
                ) : (
                  <Skeleton className="h-8 w-full" />
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

export const xr2Renderers: Record<string, StepRenderer> = {
  'xr2.iteration': byContract(['xr2.iteration'], 'Iteration tree', IterationTree),
  ...Object.fromEntries(PARTS.map((p) => [p.kind, p.renderer])),
};
