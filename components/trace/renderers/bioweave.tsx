'use client';

import { useMemo } from 'react';
import { CHANNEL_COLORS } from '@/components/graph/colors';
import { CytoscapeView } from '@/components/graph/CytoscapeView';
import { kindsInModel } from '@/components/graph/elements';
import { GraphLegend } from '@/components/graph/Legend';
import { VIEW_CLASSES, type GraphChannel, type GraphModel } from '@/components/graph/model';
import { RUN_GRAPH_STYLES } from '@/components/graph/view-styles';
import { kindOfNodeId } from '@/components/runs/evidence-graph';
import { EvidenceChip } from '@/components/runs/EvidenceBits';
import { Badge } from '@/components/ui/Badge';
import { SortableTable, type Column } from '../SortableTable';
import type { StepOutput } from '@/lib/trace/step-schemas';
import { byContract, type ContractViewProps } from './contract';
import { SimilarityNote } from './similarity';

/*
 * BioWeave (bioweave-biomedhop.txt) step views. Its stages record
 * `{usage, output}`; the views read the output through the step contracts.
 */

type ScoreRow = StepOutput<'bioweave.verify'>['output']['rows'][number];

/**
 * The cross-verification table, whole: s_rel = 0.7·cos + 0.3·Jaccard; the pool
 * (W1, per-source cap); supporting sources; r_prior, r_sup, r_kg and
 * s_ver = their mean; s_cross = 0.7·s_rel + 0.3·s_ver; the top W2.
 */
function ScoringTable({ output: { output: out }, ctx }: ContractViewProps<'bioweave.verify'>) {
  const rows = out.rows;
  const columns: Column<ScoreRow>[] = [
    {
      key: 'text',
      header: 'Evidence unit',
      className: 'min-w-48 max-w-64',
      value: (r) => r.text,
      render: (r) =>
        ctx.evidenceById.has(r.unitId) ? (
          <button
            type="button"
            className="line-clamp-3 text-left hover:text-blue-800 hover:underline"
            title={r.text}
            onClick={() => ctx.selectEvidence(r.unitId)}
          >
            {r.text}
          </button>
        ) : (
          <span className="line-clamp-3" title={r.text}>
            {r.text}
          </span>
        ),
    },
    { key: 'source', header: 'Source', value: (r) => r.source, render: (r) => <Badge dotColor={CHANNEL_COLORS[r.source]}>{r.source}</Badge> },
    { key: 'cos', header: 'cos(q,u)', value: (r) => r.cos, numeric: true },
    { key: 'jaccard', header: 'Jaccard', value: (r) => r.jaccard, numeric: true, title: 'Jaccard(topic entities, Ent(u))' },
    { key: 'sRel', header: 's_rel', value: (r) => r.sRel, numeric: true, title: '0.7·cos + 0.3·Jaccard' },
    {
      key: 'pool',
      header: 'Pool (W1)',
      value: (r) => (r.inPool ? 1 : 0),
      render: (r) => (r.inPool ? 'in' : <span title={r.poolCut ?? ''}>cut{r.poolCut ? `: ${r.poolCut}` : ''}</span>),
    },
    { key: 'supp', header: 'Supp', value: (r) => r.supp?.length ?? 0, render: (r) => r.supp?.join(', ') || '—', title: 'Sources of other units with Sim ≥ γ' },
    { key: 'rPrior', header: 'r_prior', value: (r) => r.rPrior, numeric: true },
    { key: 'rSup', header: 'r_sup', value: (r) => r.rSup, numeric: true },
    { key: 'rKg', header: 'r_kg', value: (r) => r.rKg, numeric: true },
    { key: 'sVer', header: 's_ver', value: (r) => r.sVer, numeric: true, title: '(r_prior + r_sup + r_kg) / 3' },
    { key: 'sCross', header: 's_cross', value: (r) => r.sCross, numeric: true, title: '0.7·s_rel + 0.3·s_ver' },
    {
      key: 'top',
      header: 'Top (W2)',
      value: (r) => r.inTop,
      render: (r) => (r.inTop ? <Badge tone="blue">top</Badge> : <span className="text-slate-500">no</span>),
    },
  ];
  return (
    <div className="space-y-1">
      {out.similarity ? (
        <p className="text-xs text-slate-600">
          cos and Sim: <SimilarityNote use={out.similarity} />
        </p>
      ) : null}
      <SortableTable
        caption="Cross-verification scores of the evidence units"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.unitId}
        initialSort={{ key: 'sCross', dir: 'desc' }}
        rowClassName={(r) => (r.inTop ? 'bg-blue-50/50' : undefined)}
        testId="scoring-table"
      />
    </div>
  );
}

/** The round's plan: operator, hops with their metaedges, sources, frontier, and the missing hops it targets. */
function PlanView({ output: out }: ContractViewProps<'bioweave.plan'>) {
  return (
    <div className="space-y-1 text-xs text-slate-800">
      <p>
        Round {out.round} · operator <span className="font-mono">{out.operator}</span> · sources {out.sources.join(', ') || 'none'}
      </p>
      <p className="text-slate-600">{out.reason}</p>
      <ul className="list-disc pl-5">
        {out.hops.map((h) => (
          <li key={h.id}>
            <span className="font-mono">{h.id}</span>: {h.fromKind} → {h.toKind} via {h.metaedges.join(', ')}
            {out.targetHops.includes(h.id) ? <Badge className="ml-1">targeted</Badge> : null}
            {out.frontier[h.id]?.length ? <span className="text-slate-600"> · frontier: {out.frontier[h.id].join(', ')}</span> : null}
          </li>
        ))}
      </ul>
      {out.missingHops.length ? <p className="text-amber-900">Missing hops: {out.missingHops.join(', ')}</p> : null}
    </div>
  );
}

type PathRow = StepOutput<'bioweave.paths'>['depths'][number]['paths'][number];
const TERMS = ['entityCoverage', 'relationCompatibility', 'missingHopCoverage', 'operatorConsistency'] as const;

/** KG paths per depth with the four rank terms (entity coverage, relation compatibility, missing-hop coverage, operator consistency). */
function PathsView({ output: out, ctx }: ContractViewProps<'bioweave.paths'>) {
  const rows: PathRow[] = out.depths.flatMap((d) => d.paths);
  const columns: Column<PathRow>[] = [
    { key: 'depth', header: 'Depth', value: (r) => r.depth, numeric: true },
    {
      key: 'text',
      header: 'Path',
      className: 'min-w-56',
      value: (r) => r.text,
      render: (r) =>
        ctx.evidenceById.has(r.id) ? (
          <button type="button" className="text-left hover:text-blue-800 hover:underline" onClick={() => ctx.selectEvidence(r.id)}>
            {r.text}
          </button>
        ) : (
          r.text
        ),
    },
    ...TERMS.map((t): Column<PathRow> => ({ key: t, header: t, value: (r) => r.terms[t], numeric: true })),
    { key: 'score', header: 'Score', value: (r) => r.score, numeric: true },
    { key: 'origin', header: 'Origin', value: (r) => r.origin },
  ];
  return (
    <SortableTable
      caption="KG paths per depth with their rank terms"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      initialSort={{ key: 'score', dir: 'desc' }}
      testId="paths-table"
    />
  );
}

/** The refined evidence graph: merged, deduplicated edges coloured by the sources that state them. */
function RefinedGraph({ output: { output: out } }: ContractViewProps<'bioweave.refine'>) {
  const model: GraphModel = useMemo(() => {
    const names = new Map(out.nodes.map((n) => [n.nodeId, n.name]));
    const ids = [...new Set(out.edges.flatMap((e) => [e.sourceId, e.targetId]))];
    return {
      nodes: ids.map((id) => ({ id, label: names.get(id) ?? id.split('::').pop() ?? id, kind: kindOfNodeId(id), title: names.get(id) ?? id })),
      edges: out.edges.map((e) => {
        const channel: GraphChannel = e.sources.find((s) => s !== 'kg') ?? e.sources[0] ?? 'kg';
        const corroborated = e.corroboratedBy.length > 0;
        return {
          id: e.key,
          source: e.sourceId,
          target: e.targetId,
          label: `${e.metaedge}${corroborated ? ' ✓text' : ''}`,
          channel,
          classes: [VIEW_CLASSES.bySource, 'selected'],
        };
      }),
    };
  }, [out]);
  if (!model.edges.length) return <p className="text-sm text-slate-600">The refined evidence graph is empty.</p>;
  const channels = [...new Set(model.edges.map((e) => e.channel!))];
  return (
    <div className="space-y-1">
      <CytoscapeView
        model={model}
        layout="force"
        height={360}
        ariaLabel="Refined evidence graph"
        extraStylesheet={RUN_GRAPH_STYLES}
        exportName="bioweave-refined-graph"
        testId="refined-graph"
        footer={
          <GraphLegend
            kinds={kindsInModel(model)}
            extras={channels.map((c) => ({ label: `${c} source`, swatch: { backgroundColor: CHANNEL_COLORS[c], borderRadius: 1, height: 3, width: 16 } }))}
          />
        }
      />
      <p className="text-xs text-slate-600">{model.edges.length} edges; “✓text” marks KG edges a document or web span corroborates.</p>
    </div>
  );
}

/** Whether the refined graph satisfies the operator, the derivation, and the answers with their support. */
function OperatorView({ output: { output: out }, ctx }: ContractViewProps<'bioweave.operator'>) {
  return (
    <div className="space-y-1 text-sm">
      <p>
        <Badge tone={out.satisfied ? 'green' : 'amber'}>{out.satisfied ? 'operator satisfied' : 'not satisfied'}</Badge>{' '}
        <span className="text-slate-700">{out.reason}</span>
      </p>
      {out.derivation.length ? (
        <ul className="list-disc pl-5 font-mono text-xs text-slate-800">
          {out.derivation.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      ) : null}
      {out.answers.map((a) => (
        <div key={a.nodeId} className="flex flex-wrap items-center gap-1 text-xs">
          <span className="font-medium text-slate-900">{a.name}</span>
          {a.supportIds.map((id) => (
            <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
          ))}
        </div>
      ))}
      {out.missingHops.length ? <p className="text-xs text-amber-900">Missing hops: {out.missingHops.join(', ')}</p> : null}
    </div>
  );
}

/** The repair decision: answer, or backtrack the missing hop with an updated plan. */
function RepairView({ output: { output: out } }: ContractViewProps<'bioweave.repair'>) {
  const { repair } = out;
  return (
    <div className="space-y-1 text-sm">
      <p>
        <Badge tone={out.decision === 'answer' ? 'green' : 'amber'}>{out.decision}</Badge> <span className="text-slate-700">{out.reason}</span>
      </p>
      {out.missingHop ? <p className="text-xs text-slate-700">Missing hop: {out.missingHop}</p> : null}
      {repair ? (
        <p className="text-xs text-slate-700">
          Repair: {repair.missingHop ?? 'no hop'} via {repair.targetRelation.join(', ') || '—'} from {repair.targetEntities.join(', ') || '—'}; sources{' '}
          {repair.updatedSourcePlan.join(', ') || '—'}
          {repair.retrievalQueries.length ? `; queries: ${repair.retrievalQueries.join(' | ')}` : ''}. {repair.briefReason}
        </p>
      ) : null}
    </div>
  );
}

export const bioweaveRenderers = {
  'bioweave.verify': byContract(['bioweave.verify'], 'Cross-verification scoring table', ScoringTable),
  'bioweave.plan': byContract(['bioweave.plan'], 'Plan and frontier', PlanView),
  'bioweave.paths': byContract(['bioweave.paths'], 'Paths per depth', PathsView),
  'bioweave.refine': byContract(['bioweave.refine'], 'Refined evidence graph', RefinedGraph),
  'bioweave.operator': byContract(['bioweave.operator'], 'Operator check', OperatorView),
  'bioweave.repair': byContract(['bioweave.repair'], 'Repair decision', RepairView),
};
