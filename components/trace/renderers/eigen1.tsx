'use client';

import type { LayoutOptions } from 'cytoscape';
import { useMemo, useState } from 'react';
import { CytoscapeView } from '@/components/graph/CytoscapeView';
import { LINEAGE_STAGE_COLORS } from '@/components/graph/colors';
import { GraphLegend } from '@/components/graph/Legend';
import { LINEAGE_STYLES } from '@/components/graph/view-styles';
import type { GraphModel } from '@/components/graph/model';
import { CitingText, EvidenceChip } from '@/components/runs/EvidenceBits';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import type { StepOutput } from '@/lib/trace/step-schemas';
import { SortableTable, type Column } from '../SortableTable';
import { byContract, type ContractViewProps } from './contract';
import { lineageLayout, lineageModel, type LineageNodeData } from './eigen1-lineage';
import { streamPieces } from './stream-pieces';
import { SimilarityNote } from './similarity';

/**
 * EIGEN-1's monitored generation: the reasoning as it streamed, with the
 * injected asides marked as not model-written, and the monitor windows (pick
 * one to see which stretch of text the monitor judged).
 */
function ReasoningStream({ output: out, ctx }: ContractViewProps<'eigen1.generation'>) {
  const [active, setActive] = useState<number | null>(null);
  const window = active !== null ? (out.windows[active] ?? null) : null;
  const pieces = streamPieces(out.text, out.segments, window);
  return (
    <div className="space-y-3">
      <div>
        <div className="mb-1 flex flex-wrap items-center gap-3 text-xs text-slate-600">
          <span>{out.text.length.toLocaleString('en-US')} characters</span>
          <span className="inline-flex items-center gap-1">
            <span aria-hidden className="inline-block h-3 w-5 rounded-sm border-b-2 border-amber-500 bg-amber-100" /> injected by the injector (not
            model-written)
          </span>
          <span className="inline-flex items-center gap-1">
            <span aria-hidden className="inline-block h-3 w-5 rounded-sm bg-sky-100 ring-1 ring-sky-400" /> selected monitor window
          </span>
          {out.finishReason ? <span>finish: {out.finishReason}</span> : null}
        </div>
        <div
          tabIndex={0}
          aria-label="Reasoning stream"
          className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-white p-3 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800"
          data-testid="reasoning-stream"
        >
          {pieces.map((p) =>
            p.source === 'injected' ? (
              <span
                key={p.start}
                data-testid="injected-span"
                title="Injected by the injector from retrieved records — not written by the reasoning model"
                className={cn('rounded-sm border-b-2 border-amber-500 bg-amber-100', p.inWindow && 'ring-1 ring-sky-400')}
              >
                <span className="mr-1 rounded bg-amber-600 px-1 align-middle text-[10px] font-semibold text-white uppercase">injected</span>
                <CitingText text={p.text} evidenceById={ctx.evidenceById} onSelect={ctx.selectEvidence} />
              </span>
            ) : (
              <span key={p.start} className={cn(p.inWindow && 'bg-sky-100 ring-1 ring-sky-400')}>
                {p.text}
              </span>
            ),
          )}
        </div>
      </div>

      <div>
        <h4 className="mb-1 text-xs font-semibold text-slate-700">Monitor windows ({out.windows.length})</h4>
        <ol className="space-y-1" data-testid="monitor-windows">
          {out.windows.map((w, i) => (
            <li key={`${w.start}-${w.end}`}>
              <button
                type="button"
                aria-pressed={active === i}
                onClick={() => setActive(active === i ? null : i)}
                onMouseEnter={() => setActive(i)}
                onFocus={() => setActive(i)}
                className={cn(
                  'flex w-full flex-wrap items-center gap-2 rounded-md border px-2 py-1 text-left text-xs',
                  active === i ? 'border-sky-400 bg-sky-50' : 'border-slate-200 bg-white hover:bg-slate-50',
                )}
              >
                <span className="font-mono tabular-nums text-slate-700">
                  {w.start}–{w.end}
                </span>
                <Badge tone={w.needsRetrieval ? 'amber' : 'neutral'}>{w.needsRetrieval ? 'needs retrieval' : 'no retrieval'}</Badge>
                {w.spliced ? <Badge tone="blue">aside spliced here</Badge> : null}
                <span className="min-w-0 flex-1 text-slate-700">{w.reason}</span>
              </button>
            </li>
          ))}
        </ol>
      </div>

      {out.injections.length ? (
        <div>
          <h4 className="mb-1 text-xs font-semibold text-slate-700">Injections ({out.injections.length})</h4>
          <ol className="space-y-2" data-testid="injections">
            {out.injections.map((inj) => (
              <li key={inj.index} className="space-y-1 rounded-md border border-amber-200 bg-amber-50/40 p-2 text-xs">
                <p>
                  <span className="font-semibold">#{inj.index}</span> at offset <span className="font-mono">{inj.spliceOffset}</span> · query
                  {inj.queryBy === 'window' ? ' (querier off: the window as it stands)' : ''}: <q className="text-slate-900">{inj.query}</q>
                </p>
                <RetrievedChips injection={inj} ctx={ctx} />
                <p className="text-slate-700">
                  <span className="font-semibold">{inj.writtenBy === 'raw-retrieval' ? 'Spliced raw (injector off): ' : 'Injector output: '}</span>
                  <CitingText text={inj.aside} evidenceById={ctx.evidenceById} onSelect={ctx.selectEvidence} />
                </p>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </div>
  );
}

/** EIGEN-1's candidate lineage: proposals → corrections → HSR refinements → QAIR rounds → the ranker's selection. */
function LineageView({ output: data }: ContractViewProps<'eigen1.lineage'>) {
  const model: GraphModel = useMemo(() => lineageModel(data), [data]);
  const layout: LayoutOptions = useMemo(() => lineageLayout(data), [data]);
  const columns: Column<LineageNodeData>[] = [
    { key: 'id', header: 'Version', value: (n) => n.id },
    { key: 'stage', header: 'Stage', value: (n) => n.stage },
    { key: 'lane', header: 'Proposer line', value: (n) => n.lane, numeric: true },
    { key: 'round', header: 'QAIR round', value: (n) => n.round, numeric: true },
    { key: 'answer', header: 'Answer', value: (n) => (n.abstained ? '(abstained)' : n.answer) },
    { key: 'q', header: 'q', value: (n) => n.q, numeric: true },
    { key: 'passed', header: 'Passed τ', value: (n) => (n.passed === null ? null : n.passed ? 'yes' : 'no') },
  ];
  return (
    <div className="space-y-2">
      <CytoscapeView
        model={model}
        layout={layout}
        height={Math.max(220, 90 + 60 * new Set(data.nodes.map((n) => n.lane)).size)}
        ariaLabel="Candidate lineage graph"
        extraStylesheet={LINEAGE_STYLES}
        elementOptions={{ maxLabelLength: 40, alwaysLabelEdgesUpTo: 0 }}
        exportName="eigen1-lineage"
        testId="lineage-graph"
        footer={
          <GraphLegend
            kinds={[]}
            extras={Object.entries(LINEAGE_STAGE_COLORS).map(([stage, color]) => ({ label: stage, swatch: { backgroundColor: color, borderRadius: 3 } }))}
          />
        }
      />
      <SortableTable caption="Candidate versions" columns={columns} rows={data.nodes} rowKey={(n) => n.id} testId="lineage-table" pageSize={40} />
    </div>
  );
}

type AssessedData = StepOutput<'eigen1.qair-round'>['scored'][number];

/** A QAIR round: every candidate's logic / answer / explanation scores, q, and whether it passed τ. */
function QairRound({ output: out }: ContractViewProps<'eigen1.qair-round'>) {
  const { scored } = out;
  if (!scored.length) return <p className="text-sm text-slate-600">Nothing scored.</p>;
  const columns: Column<AssessedData>[] = [
    { key: 'id', header: 'Candidate', value: (a) => a.candidate.id },
    { key: 'answer', header: 'Answer', value: (a) => (a.candidate.solution.abstain ? '(abstained)' : a.candidate.solution.answer) },
    { key: 'logic', header: 'Logic', value: (a) => a.quality.scores.logic, numeric: true },
    { key: 'ans', header: 'Answer score', value: (a) => a.quality.scores.answer, numeric: true },
    { key: 'expl', header: 'Explanation', value: (a) => a.quality.scores.explanation, numeric: true },
    { key: 'q', header: 'q', value: (a) => a.quality.q, numeric: true },
    { key: 'passed', header: 'Passed', value: (a) => (a.quality.passed ? 'yes' : 'no') },
    { key: 'suggestion', header: 'Suggestion', value: (a) => a.suggestion },
  ];
  return (
    <div className="space-y-1">
      <SortableTable
        caption="QAIR scores"
        columns={columns}
        rows={scored}
        rowKey={(a) => a.candidate.id}
        initialSort={{ key: 'q', dir: 'desc' }}
        testId="qair-table"
      />
      {out.corrected.length ? <p className="text-xs text-slate-600">Corrected for the next round: {out.corrected.map((c) => c.id).join(', ')}</p> : null}
    </div>
  );
}

/** What retrieval returned for an injection; what the injector did not use is faded. */
function RetrievedChips({
  injection,
  ctx,
}: {
  injection: { retrieved: { id: string }[]; usedIds: string[] };
  ctx: ContractViewProps<'eigen1.injection'>['ctx'];
}) {
  return (
    <div className="flex flex-wrap gap-1">
      {injection.retrieved.map((r) => (
        <span
          key={r.id}
          className={cn('flex max-w-full', !injection.usedIds.includes(r.id) && 'opacity-60')}
          title={injection.usedIds.includes(r.id) ? 'used by the injector' : 'retrieved, not used'}
        >
          <EvidenceChip evidence={ctx.evidenceById.get(r.id)} onSelect={ctx.selectEvidence} />
        </span>
      ))}
    </div>
  );
}

/** One injection: the querier's query, what retrieval returned, and the aside the injector wrote (never the reasoning model). */
function InjectionView({ output: inj, ctx }: ContractViewProps<'eigen1.injection'>) {
  return (
    <div className="space-y-1 text-sm">
      <p>
        Query: <q className="text-slate-900">{inj.query}</q> · spliced at offset <span className="font-mono">{inj.spliceOffset}</span>
      </p>
      <RetrievedChips injection={inj} ctx={ctx} />
      <p className="rounded-sm border-b-2 border-amber-500 bg-amber-100 px-1 text-slate-900" data-testid="injected-span">
        <span className="mr-1 rounded bg-amber-600 px-1 align-middle text-[10px] font-semibold text-white uppercase">injected</span>
        <CitingText text={inj.aside} evidenceById={ctx.evidenceById} onSelect={ctx.selectEvidence} />
      </p>
      <p className="text-xs text-slate-600">Written by the injector from the retrieved records, not by the reasoning model.</p>
    </div>
  );
}

/** One proposer: its candidate answer, the claims with the evidence they cite (by text, not id), asides injected, and tokens per stage. */
function ProposerView({ output: { candidate, injections, usage }, ctx }: ContractViewProps<'eigen1.proposer'>) {
  const textOf = new Map(candidate.evidence.map((e) => [e.id, e.text]));
  return (
    <div className="space-y-2 text-sm" data-testid="proposer-view">
      <p>
        <span className="font-semibold text-slate-900">Candidate {candidate.id}:</span>{' '}
        {candidate.solution.abstain ? <Badge tone="amber">abstained</Badge> : <span className="text-slate-900">{candidate.solution.answer}</span>}
        <span className="text-xs text-slate-600">
          {' '}
          · {candidate.evidence.length} evidence records seen · {injections} aside{injections === 1 ? '' : 's'} injected
        </span>
      </p>
      {candidate.solution.claims.length ? (
        <table className="w-full text-left text-xs">
          <caption className="sr-only">Claims of candidate {candidate.id}</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-2">
                Claim
              </th>
              <th scope="col" className="py-1">
                Evidence it cites
              </th>
            </tr>
          </thead>
          <tbody>
            {candidate.solution.claims.map((c, i) => (
              <tr key={i} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-2 text-slate-900">{c.text}</td>
                <td className="py-1">
                  {c.evidenceIds.length ? (
                    <ul className="space-y-0.5">
                      {c.evidenceIds.map((id) =>
                        ctx.evidenceById.has(id) ? (
                          <li key={id}>
                            <EvidenceChip evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
                          </li>
                        ) : (
                          <li key={id} className="text-slate-700">
                            {textOf.get(id) ?? 'a record outside this run'}
                          </li>
                        ),
                      )}
                    </ul>
                  ) : (
                    <span className="text-amber-800">none: unsupported</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {usage.length ? (
        <p className="text-xs text-slate-600">
          Tokens by stage:{' '}
          {usage.map((u) => `${u.stage} ${u.calls} call${u.calls === 1 ? '' : 's'}, ${u.estimated ? '≈' : ''}${u.tokensIn + u.tokensOut}`).join(' · ')}
          {usage.some((u) => u.estimated) ? ' (≈: estimated)' : ''}
        </p>
      ) : null}
    </div>
  );
}

type RankingRow = StepOutput<'eigen1.retrieval'>['ranking'][number];

/** A retrieval: each KG candidate's similarity to the query and whether it continues the thought; the top k go to the injector. */
function RetrievalView({ output: out, ctx }: ContractViewProps<'eigen1.retrieval'>) {
  const rows = out.ranking;
  const columns: Column<RankingRow>[] = [
    {
      key: 'text',
      header: 'KG candidate',
      className: 'min-w-56',
      value: (r) => ctx.evidenceById.get(r.id)?.text ?? r.id,
      render: (r) => (
        <button type="button" className="text-left hover:text-blue-800 hover:underline" onClick={() => ctx.selectEvidence(r.id)}>
          {ctx.evidenceById.get(r.id)?.text ?? r.id}
        </button>
      ),
    },
    { key: 'inContext', header: 'Named in the reasoning', value: (r) => (r.inContext ? 'yes' : 'no') },
    { key: 'sim', header: 'Sim to the query', value: (r) => r.sim, numeric: true },
    {
      key: 'selected',
      header: 'Top k',
      value: (r) => r.selected,
      render: (r) => (r.selected ? <Badge tone="blue">shown</Badge> : <span className="text-slate-500">no</span>),
    },
  ];
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">
        Query: “{out.query}” · {out.considered} records considered{out.notes.length ? ` · ${out.notes.join('; ')}` : ''}
        {out.similarity ? (
          <>
            {' '}
            · <SimilarityNote use={out.similarity} />
          </>
        ) : null}
      </p>
      {rows.length ? (
        <SortableTable caption="KG candidates of the retrieval" columns={columns} rows={rows} rowKey={(r) => r.id} testId="retrieval-table" />
      ) : (
        <p className="text-sm text-slate-600">No KG candidate.</p>
      )}
    </div>
  );
}

export const eigen1Renderers = {
  'eigen1.proposer': byContract(['eigen1.proposer'], 'Proposer', ProposerView),
  'eigen1.injection': byContract(['eigen1.injection'], 'Injected aside', InjectionView),
  'eigen1.retrieval': byContract(['eigen1.retrieval'], 'Retrieval ranking', RetrievalView),
  'eigen1.generation': byContract(['eigen1.generation'], 'Reasoning stream', ReasoningStream),
  'eigen1.lineage': byContract(['eigen1.lineage'], 'Candidate lineage graph', LineageView),
  'eigen1.qair-round': byContract(['eigen1.qair-round'], 'QAIR scores', QairRound),
};
