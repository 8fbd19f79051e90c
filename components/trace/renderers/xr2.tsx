'use client';

import { useQueries } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { stepDetailQueryOptions } from '@/components/runs/queries';
import { EvidenceChip, NodeLink } from '@/components/runs/EvidenceBits';
import { Badge } from '@/components/ui/Badge';
import { Skeleton } from '@/components/ui/Skeleton';
import type { StepDetail } from '@/lib/runs/view';
import type { StepRenderer, StepRendererProps, TraceContext } from './types';

/*
 * X-R2 (xr2.txt) step views: the iteration as a tree of decomposition,
 * extraction, KG evidence, parametric claims, intermediate answer and the
 * check verdict with its action. Shapes read defensively from the outputs.
 */

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = <T,>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function List({ title, items }: { title: string; items: unknown[] }) {
  if (!items.length) return null;
  return (
    <div>
      <p className="text-xs font-semibold text-slate-700">{title}</p>
      <ul className="list-disc pl-5 text-sm text-slate-800">
        {items.map((x, i) => (
          <li key={i}>{typeof x === 'string' ? x : isObject(x) && typeof x.text === 'string' ? x.text : JSON.stringify(x)}</li>
        ))}
      </ul>
    </div>
  );
}

function Decomposition({ output }: { output: unknown }) {
  const o = isObject(output) ? output : {};
  return (
    <div className="space-y-1">
      {typeof o.current === 'string' ? (
        <p className="text-sm text-slate-900">
          <span className="font-semibold">Current step question: </span>
          {o.current}
        </p>
      ) : null}
      <List title="Subquestions" items={arr(o.subquestions)} />
      <List title="Constraints" items={arr(o.constraints)} />
      <List title="Required evidence" items={arr(o.required_evidence)} />
    </div>
  );
}

function Extraction({ output }: { output: unknown }) {
  const o = isObject(output) ? output : {};
  const linked = arr<Data>(o.linked);
  const relations = arr<Data>(o.relations);
  return (
    <div className="space-y-1 text-sm">
      <p>
        <span className="font-semibold">Entities E_t: </span>
        {linked.length
          ? linked.map((l, i) => (
              <span key={String(l.nodeId)}>
                {i ? ', ' : ''}
                <NodeLink id={String(l.nodeId)} name={String(l.name ?? l.nodeId)} /> <span className="text-xs text-slate-500">({String(l.kind ?? '')})</span>
              </span>
            ))
          : 'none linked'}
      </p>
      {relations.length ? (
        <table className="text-left text-xs">
          <caption className="sr-only">Relation and constraint cues R_t</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="pr-3">Cue</th>
              <th scope="col" className="pr-3">Entity</th>
              <th scope="col" className="pr-3">Metaedges</th>
              <th scope="col" className="pr-3">Direction</th>
              <th scope="col" className="pr-3">Target kind</th>
              <th scope="col">Negated</th>
            </tr>
          </thead>
          <tbody>
            {relations.map((r, i) => (
              <tr key={i} className="border-t border-slate-100">
                <td className="pr-3">“{String(r.cue ?? '')}”</td>
                <td className="pr-3">{String(r.entity ?? '')}</td>
                <td className="pr-3 font-mono">{arr<string>(r.metaedges).join(', ')}</td>
                <td className="pr-3">{String(r.direction ?? '')}</td>
                <td className="pr-3">{String(r.targetKind ?? '')}</td>
                <td>{r.negated ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {typeof o.outputFormat === 'string' || typeof o.answerKind === 'string' ? (
        <p className="text-xs text-slate-600">
          Answer kind: {String(o.answerKind ?? '—')} · output format: {String(o.outputFormat ?? '—')}
          {arr(o.unresolved).length ? ` · unresolved: ${arr(o.unresolved).map(String).join(', ')}` : ''}
        </p>
      ) : null}
    </div>
  );
}

function KgEvidence({ output, ctx }: { output: unknown; ctx: TraceContext }) {
  const o = isObject(output) ? output : {};
  const ids = arr<Data>(o.units).flatMap((u) => arr<Data>(u.lines).map((l) => String(l.id)));
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">
        {arr(o.units).length} top-K unit{arr(o.units).length === 1 ? '' : 's'} into the prompt ({ids.length} lines); the rest stay in the trace as candidates.
        {arr<string>(o.notes).length ? ` ${arr<string>(o.notes).join(' ')}` : ''}
      </p>
      <div className="flex flex-wrap gap-1">
        {ids.map((id) => (
          <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
        ))}
      </div>
    </div>
  );
}

function Claims({ output }: { output: unknown }) {
  const o = isObject(output) ? output : {};
  const claims = arr<Data>(o.claims);
  return claims.length ? (
    <ul className="list-disc pl-5 text-sm">
      {claims.map((c, i) => (
        <li key={i}>
          {String(c.text ?? c.claim ?? JSON.stringify(c))} {typeof c.confidence === 'number' ? <span className="text-xs text-slate-500">(confidence {c.confidence.toFixed(2)})</span> : null}
        </li>
      ))}
    </ul>
  ) : (
    <p className="text-sm text-slate-600">{typeof o.note === 'string' ? o.note : 'No parametric claims.'}</p>
  );
}

function IntermediateAnswer({ output, ctx }: { output: unknown; ctx: TraceContext }) {
  const o = isObject(output) ? output : {};
  const answer = arr<string>(o.answer);
  return (
    <div className="space-y-1 text-sm">
      <p>
        <span className="font-semibold">A_t: </span>
        {o.abstain ? 'abstained' : answer.length ? answer.join('; ') : String(o.answer ?? '—')}
        {typeof o.count === 'number' ? ` (count ${o.count})` : ''}
      </p>
      <div className="flex flex-wrap gap-1">
        {arr<string>(o.evidenceIds).map((id) => (
          <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
        ))}
      </div>
    </div>
  );
}

function CheckVerdict({ output }: { output: unknown }) {
  const o = isObject(output) ? output : {};
  const v = isObject(o.verdict) ? o.verdict : o;
  const flag = (name: string, value: unknown) => (typeof value === 'boolean' ? <Badge tone={value ? 'green' : 'amber'}>{`${name}: ${value ? 'yes' : 'no'}`}</Badge> : null);
  return (
    <div className="space-y-1 text-sm" data-testid="check-verdict">
      <p className="flex flex-wrap items-center gap-1.5">
        {flag('stop', v.stop)}
        {flag('sufficient', v.sufficient)}
        {flag('consistent', v.consistent)}
        {typeof o.action === 'string' ? (
          <span className="text-xs text-slate-700">
            action: <strong>{o.action === 'stop' ? 'stop and answer' : o.action}</strong>
          </span>
        ) : null}
      </p>
      {typeof v.reason === 'string' ? <p className="text-slate-700">{v.reason}</p> : null}
      {arr(v.missing).length ? <List title="Missing (the next decomposition closes this gap)" items={arr(v.missing)} /> : null}
    </div>
  );
}

const PARTS: { kind: string; title: string; View: (p: { output: unknown; ctx: TraceContext }) => ReactNode }[] = [
  { kind: 'xr2.decompose', title: 'Decomposition', View: ({ output }) => <Decomposition output={output} /> },
  { kind: 'xr2.extract', title: 'Extraction: entities and relation cues', View: ({ output }) => <Extraction output={output} /> },
  { kind: 'xr2.kg', title: 'KG evidence', View: KgEvidence },
  { kind: 'xr2.recall', title: 'Parametric claims', View: ({ output }) => <Claims output={output} /> },
  { kind: 'xr2.reason', title: 'Intermediate answer', View: IntermediateAnswer },
  { kind: 'xr2.check', title: 'Check verdict and action', View: ({ output }) => <CheckVerdict output={output} /> },
];

/** One X-R2 iteration as its tree: decomposition → extraction → KG evidence ‖ parametric claims → answer → check + action. */
function IterationTree({ detail, ctx }: StepRendererProps) {
  const children = ctx.node.children.filter((c) => PARTS.some((p) => p.kind === c.step.kind));
  const details = useQueries({ queries: children.map((c) => stepDetailQueryOptions(ctx.run, c.step.id, c.step.status)) });
  const input = isObject(detail.step.input) ? detail.step.input : {};
  const output = isObject(detail.step.output) ? detail.step.output : {};
  return (
    <div className="space-y-2" data-testid="iteration-tree">
      <p className="text-xs text-slate-600">
        Iteration {String(input.t ?? '')} of at most {String(input.tMax ?? '—')}
        {typeof output.action === 'string' ? ` · ended with: ${output.action === 'stop' ? 'stop' : output.action}` : ''}
      </p>
      <ol className="space-y-2 border-l-2 border-slate-200 pl-3">
        {children.map((c, i) => {
          const part = PARTS.find((p) => p.kind === c.step.kind)!;
          const q = details[i];
          return (
            <li key={c.step.id}>
              <button type="button" className="text-xs font-semibold tracking-wide text-slate-700 uppercase hover:text-blue-800" onClick={() => ctx.selectStep(c.step.ordinal)}>
                {part.title}
              </button>
              <div className="mt-0.5">
                {q.data ? <part.View output={(q.data as StepDetail).step.output} ctx={ctx} /> : q.isError ? <p className="text-xs text-red-800">Could not load this step.</p> : <Skeleton className="h-8 w-full" />}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

const single = (View: (p: { output: unknown; ctx: TraceContext }) => ReactNode) =>
  function SingleStep({ detail, ctx }: StepRendererProps) {
    return <View output={detail.step.output} ctx={ctx} />;
  };

export const xr2Renderers: Record<string, StepRenderer> = {
  'xr2.iteration': { title: 'Iteration tree', Output: IterationTree },
  ...Object.fromEntries(PARTS.map((p) => [p.kind, { title: p.title, Output: single(p.View) }])),
};
