'use client';

import { EvidenceChip, NodeLink } from '@/components/runs/EvidenceBits';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import { SortableTable, formatNumber, type Column } from '../SortableTable';
import type { RegramCandidateTable, StepOutput } from '@/lib/trace/step-schemas';
import { byContract, type ContractViewProps } from './contract';
import { SimilarityNote } from './similarity';

/* ReGraM (regram.txt) step views, reading outputs through their step contracts. */

const MODE_TONE: Record<string, 'green' | 'amber' | 'red'> = { 'KG-STRICT': 'green', HYBRID: 'amber', 'LLM-GUESS': 'red' };

function ModeBadge({ mode }: { mode: string }) {
  return <Badge tone={MODE_TONE[mode] ?? 'neutral'}>{mode}</Badge>;
}

type CandidateRow = Omit<RegramCandidateTable['rows'][number], 'category'> & { category: string };

/**
 * The candidate table of one hop's weighted MMR: relation, category, w_r, Sim,
 * the two MMR terms (λ·Sim·w_r and (1−λ)·max Sim to the selected), MMR, rank,
 * selected — every column sortable.
 */
function CandidateTable({ output: out, input, ctx }: ContractViewProps<'regram.mmr'>) {
  const rows: CandidateRow[] = out.rows.map((r) => ({ ...r, category: r.category ?? '' }));
  const columns: Column<CandidateRow>[] = [
    {
      key: 'triple',
      header: 'Triple',
      className: 'min-w-44 max-w-64',
      value: (r) => `${r.source} ${r.target}`,
      render: (r) =>
        r.evidenceId ? (
          <button type="button" className="text-left hover:text-blue-800 hover:underline" onClick={() => ctx.selectEvidence(r.evidenceId)} title={r.simText}>
            {r.source} <span className="text-slate-500">→</span> {r.target}
          </button>
        ) : (
          `${r.source} → ${r.target}`
        ),
    },
    { key: 'rank', header: 'Rank', value: (r) => r.rank, numeric: true, title: 'Order of greedy selection (blank: not selected)' },
    { key: 'relation', header: 'Relation', value: (r) => r.relation },
    { key: 'category', header: 'Category', value: (r) => r.category },
    { key: 'wR', header: 'w_r', value: (r) => r.wR, numeric: true, title: 'Relation weight of the category for the predicted domain' },
    { key: 'sim', header: 'Sim', value: (r) => r.sim, numeric: true, title: 'Sim(q_i, t)' },
    { key: 'relevance', header: 'λ·Sim·w_r', value: (r) => r.relevance, numeric: true },
    { key: 'redundancy', header: '(1−λ)·max Sim', value: (r) => r.redundancy, numeric: true, title: 'Redundancy with the already selected triples' },
    { key: 'mmr', header: 'MMR', value: (r) => r.mmr, numeric: true },
    {
      key: 'selected',
      header: 'Selected',
      value: (r) => r.selected,
      render: (r) => (r.selected ? <Badge tone="blue">selected</Badge> : <span className="text-slate-500">no</span>),
    },
  ];
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">
        λ = {out.lambda} · K = {out.k} · domain {input.domain ?? '—'} · {rows.length} candidates, {rows.filter((r) => r.selected).length} selected
        {out.similarity ? (
          <>
            {' '}
            · <SimilarityNote use={out.similarity} />
          </>
        ) : null}
        {out.queries.length ? ` · Sim against: ${out.queries.join(' | ')}` : ''}
      </p>
      <SortableTable
        caption="Candidate triples and their weighted MMR terms"
        columns={columns}
        rows={rows}
        rowKey={(r, i) => `${r.evidenceId ?? i}`}
        initialSort={{ key: 'rank', dir: 'asc' }}
        rowClassName={(r) => (r.selected ? 'bg-blue-50/50' : 'text-slate-600')}
        testId="candidate-table"
        pageSize={60}
      />
    </div>
  );
}

/** The candidate pool per linked node: relations kept under the hub cap, by weight. */
function CandidatePool({ output: out }: ContractViewProps<'regram.candidates'>) {
  if (!out.enabled) return <p className="text-sm text-slate-700">The kg switch is off: no candidate triples. {out.note ?? ''}</p>;
  return (
    <div className="space-y-2 text-xs">
      <p className="text-slate-600">
        Hub cap: {out.hubCap} triples per node · {out.records.length} candidates
        {out.note ? ` · ${out.note}` : ''}
      </p>
      {out.caps.map((c) => (
        <div key={c.nodeId}>
          <p className="font-medium text-slate-800">
            <NodeLink id={c.nodeId} name={c.name} />{' '}
            {c.capped ? <Badge tone="amber">capped at {c.kept}</Badge> : <span className="text-slate-500">{c.kept} kept</span>}
          </p>
          <table className="mt-1 w-full max-w-xl text-left tabular-nums">
            <caption className="sr-only">Relations of {c.name}</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="pr-2">
                  Relation
                </th>
                <th scope="col" className="pr-2 text-right">
                  w_r
                </th>
                <th scope="col" className="pr-2 text-right">
                  Match
                </th>
                <th scope="col" className="pr-2 text-right">
                  Available
                </th>
                <th scope="col" className="text-right">
                  Kept
                </th>
              </tr>
            </thead>
            <tbody>
              {c.relations.map((r) => (
                <tr key={r.metaedge} className={cn('border-t border-slate-100', !r.kept && 'text-slate-500')}>
                  <td className="pr-2 font-mono">{r.metaedge}</td>
                  <td className="pr-2 text-right">{formatNumber(r.weight)}</td>
                  <td className="pr-2 text-right">{formatNumber(r.relevance)}</td>
                  <td className="pr-2 text-right">{r.available === null ? 'not counted' : r.available}</td>
                  <td className="text-right">{r.kept}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

/** The region G_q: its entities (seeds marked), its triples by name, and the relation schema R it allows. */
function RegionView({ output: region, ctx }: ContractViewProps<'regram.region'>) {
  return (
    <div className="space-y-3 text-xs" data-testid="region-view">
      <p className="text-slate-700">
        {region.nodes.length} entities ({region.nodes.filter((n) => n.seed).length} seeds) · {region.facts.length} triples · {region.relations.length} allowed
        relations. The region is a hard boundary: later stages may only use these entities and relations.
      </p>
      <div>
        <h5 className="font-semibold text-slate-700">Triples E_q, in selection order</h5>
        <ol className="mt-1 space-y-0.5">
          {region.facts.map((f, i) => (
            <li key={f.id} className="flex flex-wrap items-baseline gap-1">
              <span className="w-5 text-right text-slate-500 tabular-nums">{i + 1}.</span>
              <NodeLink id={f.triple.sourceId} name={f.triple.sourceName} />
              <span className="text-slate-600">— {f.triple.verb} →</span>
              <NodeLink id={f.triple.targetId} name={f.triple.targetName} />
              <span className="font-mono text-[11px] text-slate-500">{f.triple.metaedge}</span>
              {ctx.evidenceById.has(f.id) ? <EvidenceChip evidence={ctx.evidenceById.get(f.id)} onSelect={ctx.selectEvidence} /> : null}
            </li>
          ))}
        </ol>
      </div>
      <div className="flex flex-wrap gap-6">
        <div>
          <h5 className="font-semibold text-slate-700">Entities V_q</h5>
          <ul className="mt-1 flex max-w-xl flex-wrap gap-1">
            {region.nodes.map((n) => (
              <li key={n.nodeId}>
                <Badge tone={n.seed ? 'blue' : 'neutral'} title={`${n.kind}${n.seed ? ', seed of this hop' : ''}`}>
                  {n.name} <span className="text-slate-500">· {n.kind}</span>
                </Badge>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h5 className="font-semibold text-slate-700">Allowed relations R</h5>
          <ul className="mt-1 space-y-0.5">
            {region.relations.map((r) => (
              <li key={r.metaedge}>
                <span className="font-mono">{r.metaedge}</span>{' '}
                <span className="text-slate-600">
                  {r.sourceKind} {r.verb} {r.targetKind}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}

/** Mode by N_facts, and why. */
function ModeView({ output: out, input }: ContractViewProps<'regram.mode'>) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <ModeBadge mode={out.mode} />
      <span className="text-slate-800">{out.why}</span>
      <span className="text-xs text-slate-500">
        (KG-STRICT ≥ {input.strictMinFacts}, HYBRID ≥ {input.hybridMinFacts} facts)
      </span>
    </p>
  );
}

/** One hop: question, mode, region size, answer. */
function HopView({ output: out, ctx }: ContractViewProps<'regram.hop'>) {
  const { region, answer } = out;
  return (
    <div className="space-y-2 text-sm">
      <p className="text-slate-900">
        <span className="font-semibold">q{out.hop}:</span> {out.question}
        {out.usesHop ? <span className="text-xs text-slate-500"> (builds on hop {out.usesHop})</span> : null}
      </p>
      <p className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <ModeBadge mode={out.mode} /> region: {region.nodes.length} entities, {region.edges.length} triples, {region.relations.length} relations ·{' '}
        {out.hypotheses.length} hypotheses
      </p>
      <p className="text-slate-800">
        <span className="font-semibold">Hop answer: </span>
        {answer.abstain ? 'abstained' : answer.answer || '—'}
      </p>
      {answer.evidenceIds.length ? (
        <div className="flex flex-wrap gap-1">
          {answer.evidenceIds.map((id) => (
            <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
          ))}
        </div>
      ) : null}
      <p className="text-xs text-slate-600">
        Set the graph filter to this hop (“this step only”) to see its region: seeds, selected triples, faded candidates and dashed hypotheses.
      </p>
    </div>
  );
}

type HypothesisRecord = StepOutput<'regram.hypotheses'>['records'][number];

interface HypothesisRow extends Omit<HypothesisRecord, 'triple' | 'judge'> {
  triple: string;
  judge: number | null;
  judgeReason: string;
}

/** HYBRID: every hypothesis with the programmatic check, the judge's score, the verdict and its revision lineage. */
function HypothesesView({ output: out, ctx }: ContractViewProps<'regram.hypotheses'>) {
  const rows: HypothesisRow[] = out.records.map(({ triple: t, judge, ...r }) => ({
    ...r,
    triple: `(${t.head}, ${t.relation}, ${t.tail})`,
    judge: judge?.score ?? null,
    judgeReason: judge ? judge.reason : 'not asked: the programmatic check ruled it out',
  }));
  const flag = (v: boolean | null) => (v === true ? '✓' : v === false ? '✗' : '?');
  const columns: Column<HypothesisRow>[] = [
    { key: 'id', header: 'Id', value: (r) => r.id },
    {
      key: 'lineage',
      header: 'Revises / revised by',
      value: (r) => `${r.parent ?? ''} ${r.revisedBy ?? ''}`,
      render: (r) => `${r.parent ? `revises ${r.parent}` : 'generated'}${r.revisedBy ? ` → ${r.revisedBy}` : ''}`,
    },
    { key: 'triple', header: 'Triple', value: (r) => r.triple },
    {
      key: 'check',
      header: 'Check (head, tail ∈ V_q · relation ∈ R · kinds · in KG)',
      value: (r) => Object.values(r.check).filter((v) => v === true).length,
      render: (r) =>
        `${flag(r.check.headInRegion)} ${flag(r.check.tailInRegion)} · ${flag(r.check.relationAllowed)} · ${flag(r.check.kindsFit)} · ${flag(r.check.inKg)}`,
    },
    {
      key: 'judge',
      header: 'Judge',
      value: (r) => r.judge,
      numeric: true,
      render: (r) => <span title={r.judgeReason}>{r.judge === null ? '—' : r.judge.toFixed(2)}</span>,
    },
    { key: 'verdict', header: 'Verdict', value: (r) => r.verdict, render: (r) => <Badge tone={r.verdict === 'accepted' ? 'green' : 'red'}>{r.verdict}</Badge> },
    {
      key: 'ev',
      header: 'Evidence',
      value: (r) => r.evidenceId,
      render: (r) => (r.evidenceId ? <EvidenceChip evidence={ctx.evidenceById.get(r.evidenceId)} onSelect={ctx.selectEvidence} /> : '—'),
    },
  ];
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">Reviewer: {out.reviewer}</p>
      {rows.length ? (
        <SortableTable caption="Hypotheses with their review" columns={columns} rows={rows} rowKey={(r) => r.id} testId="hypotheses-table" />
      ) : (
        <p className="text-sm text-slate-600">No hypothesis was generated.</p>
      )}
    </div>
  );
}

/** The evidence map handed to synthesis: per hop, the mode, sub-answer and the facts behind it. */
function EvidenceMap({ output: hops, ctx }: ContractViewProps<'regram.evidence-map'>) {
  return (
    <ol className="space-y-2 text-sm">
      {hops.map((h) => (
        <li key={h.hop} className="rounded-md border border-slate-200 p-2">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">Hop {h.hop}</span> <ModeBadge mode={h.mode} /> <span className="text-slate-700">{h.question}</span>
          </p>
          <p className="text-slate-800">→ {h.abstained ? 'abstained' : h.answer}</p>
          <div className="mt-1 flex flex-wrap gap-1">
            {h.facts.map((f) => (
              <EvidenceChip key={f.id} evidence={ctx.evidenceById.get(f.id)} onSelect={ctx.selectEvidence} />
            ))}
          </div>
        </li>
      ))}
    </ol>
  );
}

export const regramRenderers = {
  'regram.mmr': byContract(['regram.mmr'], 'Candidate table (weighted MMR)', CandidateTable),
  'regram.candidates': byContract(['regram.candidates'], 'Candidate pool', CandidatePool),
  'regram.region': byContract(['regram.region'], 'Region', RegionView),
  'regram.mode': byContract(['regram.mode'], 'Mode', ModeView),
  'regram.hop': byContract(['regram.hop'], 'Hop', HopView),
  'regram.hypotheses': byContract(['regram.hypotheses'], 'Hypotheses and review', HypothesesView),
  'regram.evidence-map': byContract(['regram.evidence-map'], 'Evidence map', EvidenceMap),
};
