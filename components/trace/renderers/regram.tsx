'use client';

import { EvidenceChip, NodeLink } from '@/components/runs/EvidenceBits';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import { SortableTable, formatNumber, type Column } from '../SortableTable';
import type { StepRenderer, StepRendererProps } from './types';

/*
 * ReGraM (regram.txt) step views. The shapes are read from the recorded
 * outputs (lib/methods/regram writes them), defensively: a trace outlives
 * the code that wrote it.
 */

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = <T,>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const MODE_TONE: Record<string, 'green' | 'amber' | 'red'> = { 'KG-STRICT': 'green', HYBRID: 'amber', 'LLM-GUESS': 'red' };

function ModeBadge({ mode }: { mode: unknown }) {
  return typeof mode === 'string' ? <Badge tone={MODE_TONE[mode] ?? 'neutral'}>{mode}</Badge> : null;
}

interface CandidateRow {
  rank: number | null;
  relation: string;
  category: string;
  wR: number | null;
  sim: number | null;
  relevance: number | null;
  redundancy: number | null;
  mmr: number | null;
  selected: boolean;
  source: string;
  target: string;
  evidenceId: string | null;
  simText: string;
}

/**
 * The candidate table of one hop's weighted MMR: relation, category, w_r, Sim,
 * the two MMR terms (λ·Sim·w_r and (1−λ)·max Sim to the selected), MMR, rank,
 * selected — every column sortable.
 */
function CandidateTable({ detail, ctx }: StepRendererProps) {
  const out = isObject(detail.step.output) ? detail.step.output : {};
  const input = isObject(detail.step.input) ? detail.step.input : {};
  const rows: CandidateRow[] = arr<Data>(out.rows).map((r) => ({
    rank: num(r.rank),
    relation: String(r.relation ?? ''),
    category: String(r.category ?? ''),
    wR: num(r.wR),
    sim: num(r.sim),
    relevance: num(r.relevance),
    redundancy: num(r.redundancy),
    mmr: num(r.mmr),
    selected: r.selected === true,
    source: String(r.source ?? ''),
    target: String(r.target ?? ''),
    evidenceId: typeof r.evidenceId === 'string' ? r.evidenceId : null,
    simText: String(r.simText ?? ''),
  }));
  const columns: Column<CandidateRow>[] = [
    {
      key: 'triple',
      header: 'Triple',
      className: 'min-w-44 max-w-64',
      value: (r) => `${r.source} ${r.target}`,
      render: (r) =>
        r.evidenceId ? (
          <button type="button" className="text-left hover:text-blue-800 hover:underline" onClick={() => ctx.selectEvidence(r.evidenceId!)} title={r.simText}>
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
    { key: 'selected', header: 'Selected', value: (r) => r.selected, render: (r) => (r.selected ? <Badge tone="blue">selected</Badge> : <span className="text-slate-500">no</span>) },
  ];
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">
        λ = {String(input.lambda ?? '—')} · K = {String(out.k ?? input.k ?? '—')} · domain {String(input.domain ?? '—')} · {rows.length} candidates, {rows.filter((r) => r.selected).length} selected
        {arr<string>(input.queries).length ? ` · Sim against: ${arr<string>(input.queries).join(' | ')}` : ''}
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
function CandidatePool({ detail }: StepRendererProps) {
  const out = isObject(detail.step.output) ? detail.step.output : {};
  const caps = arr<Data>(out.caps);
  if (out.enabled === false) return <p className="text-sm text-slate-700">The kg switch is off: no candidate triples. {String(out.note ?? '')}</p>;
  return (
    <div className="space-y-2 text-xs">
      <p className="text-slate-600">
        Hub cap: {String(out.hubCap ?? '—')} triples per node · {arr(out.records).length} candidates
        {out.note ? ` · ${String(out.note)}` : ''}
      </p>
      {caps.map((c) => (
        <div key={String(c.nodeId)}>
          <p className="font-medium text-slate-800">
            <NodeLink id={String(c.nodeId)} name={String(c.name ?? c.nodeId)} /> {c.capped ? <Badge tone="amber">capped at {String(c.kept)}</Badge> : <span className="text-slate-500">{String(c.kept)} kept</span>}
          </p>
          <table className="mt-1 w-full max-w-xl text-left tabular-nums">
            <caption className="sr-only">Relations of {String(c.name)}</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="pr-2">Relation</th>
                <th scope="col" className="pr-2 text-right">w_r</th>
                <th scope="col" className="pr-2 text-right">Match</th>
                <th scope="col" className="pr-2 text-right">Available</th>
                <th scope="col" className="text-right">Kept</th>
              </tr>
            </thead>
            <tbody>
              {arr<Data>(c.relations).map((r) => (
                <tr key={String(r.metaedge)} className={cn('border-t border-slate-100', !num(r.kept) && 'text-slate-500')}>
                  <td className="pr-2 font-mono">{String(r.metaedge)}</td>
                  <td className="pr-2 text-right">{num(r.weight) === null ? '—' : formatNumber(num(r.weight)!)}</td>
                  <td className="pr-2 text-right">{num(r.relevance) === null ? '—' : formatNumber(num(r.relevance)!)}</td>
                  <td className="pr-2 text-right">{r.available === null ? 'not counted' : String(r.available)}</td>
                  <td className="text-right">{String(r.kept)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

/** Mode by N_facts, and why. */
function ModeView({ detail }: StepRendererProps) {
  const out = isObject(detail.step.output) ? detail.step.output : {};
  const input = isObject(detail.step.input) ? detail.step.input : {};
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <ModeBadge mode={out.mode} />
      <span className="text-slate-800">{String(out.why ?? '')}</span>
      <span className="text-xs text-slate-500">
        (KG-STRICT ≥ {String(input.strictMinFacts ?? '—')}, HYBRID ≥ {String(input.hybridMinFacts ?? '—')} facts)
      </span>
    </p>
  );
}

/** One hop: question, mode, region size, answer. */
function HopView({ detail, ctx }: StepRendererProps) {
  const out = isObject(detail.step.output) ? detail.step.output : {};
  const region = isObject(out.region) ? out.region : {};
  const answer = isObject(out.answer) ? out.answer : {};
  return (
    <div className="space-y-2 text-sm">
      <p className="text-slate-900">
        <span className="font-semibold">q{String(out.hop ?? '')}:</span> {String(out.question ?? '')}
        {out.usesHop ? <span className="text-xs text-slate-500"> (builds on hop {String(out.usesHop)})</span> : null}
      </p>
      <p className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <ModeBadge mode={out.mode} /> region: {arr(region.nodes).length} entities, {arr(region.edges).length} triples, {arr(region.relations).length} relations · {num(out.hypotheses) ?? arr(out.hypotheses).length} hypotheses
      </p>
      <p className="text-slate-800">
        <span className="font-semibold">Hop answer: </span>
        {answer.abstain ? 'abstained' : String(answer.answer ?? '—')}
      </p>
      {arr<string>(answer.evidenceIds).length ? (
        <div className="flex flex-wrap gap-1">
          {arr<string>(answer.evidenceIds).map((id) => (
            <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
          ))}
        </div>
      ) : null}
      <p className="text-xs text-slate-600">Set the graph filter to this hop (“this step only”) to see its region: seeds, selected triples, faded candidates and dashed hypotheses.</p>
    </div>
  );
}

interface HypothesisRow {
  id: string;
  parent: string | null;
  round: number;
  triple: string;
  check: Data;
  judge: number | null;
  judgeReason: string;
  score: number | null;
  verdict: string;
  revisedBy: string | null;
  evidenceId: string | null;
}

/** HYBRID: every hypothesis with the programmatic check, the judge's score, the verdict and its revision lineage. */
function HypothesesView({ detail, ctx }: StepRendererProps) {
  const out = isObject(detail.step.output) ? detail.step.output : {};
  const rows: HypothesisRow[] = arr<Data>(out.records).map((r) => {
    const t = isObject(r.triple) ? r.triple : {};
    const judge = isObject(r.judge) ? r.judge : null;
    return {
      id: String(r.id ?? ''),
      parent: typeof r.parent === 'string' ? r.parent : null,
      round: num(r.round) ?? 0,
      triple: `(${String(t.head ?? '?')}, ${String(t.relation ?? '?')}, ${String(t.tail ?? '?')})`,
      check: isObject(r.check) ? r.check : {},
      judge: judge ? num(judge.score) : null,
      judgeReason: judge ? String(judge.reason ?? '') : 'not asked: the programmatic check ruled it out',
      score: num(r.score),
      verdict: String(r.verdict ?? ''),
      revisedBy: typeof r.revisedBy === 'string' ? r.revisedBy : null,
      evidenceId: typeof r.evidenceId === 'string' ? r.evidenceId : null,
    };
  });
  const flag = (v: unknown) => (v === true ? '✓' : v === false ? '✗' : '?');
  const columns: Column<HypothesisRow>[] = [
    { key: 'id', header: 'Id', value: (r) => r.id },
    { key: 'lineage', header: 'Revises / revised by', value: (r) => `${r.parent ?? ''} ${r.revisedBy ?? ''}`, render: (r) => `${r.parent ? `revises ${r.parent}` : 'generated'}${r.revisedBy ? ` → ${r.revisedBy}` : ''}` },
    { key: 'triple', header: 'Triple', value: (r) => r.triple },
    {
      key: 'check',
      header: 'Check (head, tail ∈ V_q · relation ∈ R · kinds · in KG)',
      value: (r) => Object.values(r.check).filter((v) => v === true).length,
      render: (r) => `${flag(r.check.headInRegion)} ${flag(r.check.tailInRegion)} · ${flag(r.check.relationAllowed)} · ${flag(r.check.kindsFit)} · ${flag(r.check.inKg)}`,
    },
    { key: 'judge', header: 'Judge', value: (r) => r.judge, numeric: true, render: (r) => <span title={r.judgeReason}>{r.judge === null ? '—' : r.judge.toFixed(2)}</span> },
    { key: 'verdict', header: 'Verdict', value: (r) => r.verdict, render: (r) => <Badge tone={r.verdict === 'accepted' ? 'green' : 'red'}>{r.verdict}</Badge> },
    { key: 'ev', header: 'Evidence', value: (r) => r.evidenceId, render: (r) => (r.evidenceId ? <EvidenceChip evidence={ctx.evidenceById.get(r.evidenceId)} onSelect={ctx.selectEvidence} /> : '—') },
  ];
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">Reviewer: {String(out.reviewer ?? '')}</p>
      {rows.length ? (
        <SortableTable caption="Hypotheses with their review" columns={columns} rows={rows} rowKey={(r) => r.id} testId="hypotheses-table" />
      ) : (
        <p className="text-sm text-slate-600">No hypothesis was generated.</p>
      )}
    </div>
  );
}

/** The evidence map handed to synthesis: per hop, the mode, sub-answer and the facts behind it. */
function EvidenceMap({ detail, ctx }: StepRendererProps) {
  const hops = arr<Data>(detail.step.output);
  return (
    <ol className="space-y-2 text-sm">
      {hops.map((h) => (
        <li key={String(h.hop)} className="rounded-md border border-slate-200 p-2">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">Hop {String(h.hop)}</span> <ModeBadge mode={h.mode} /> <span className="text-slate-700">{String(h.question ?? '')}</span>
          </p>
          <p className="text-slate-800">→ {h.abstained ? 'abstained' : String(h.answer ?? '')}</p>
          <div className="mt-1 flex flex-wrap gap-1">
            {arr<Data>(h.facts).map((f) => (
              <EvidenceChip key={String(f.id)} evidence={ctx.evidenceById.get(String(f.id))} onSelect={ctx.selectEvidence} />
            ))}
          </div>
        </li>
      ))}
    </ol>
  );
}

export const regramRenderers: Record<string, StepRenderer> = {
  'regram.mmr': { title: 'Candidate table (weighted MMR)', Output: CandidateTable },
  'regram.candidates': { title: 'Candidate pool', Output: CandidatePool },
  'regram.mode': { title: 'Mode', Output: ModeView },
  'regram.hop': { title: 'Hop', Output: HopView },
  'regram.hypotheses': { title: 'Hypotheses and review', Output: HypothesesView },
  'regram.evidence-map': { title: 'Evidence map', Output: EvidenceMap },
};
