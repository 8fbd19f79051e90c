'use client';

import { useMemo } from 'react';
import { CHANNEL_COLORS } from '@/components/graph/colors';
import { CytoscapeView } from '@/components/graph/CytoscapeView';
import { kindsInModel } from '@/components/graph/elements';
import { GraphLegend } from '@/components/graph/Legend';
import type { GraphChannel, GraphModel } from '@/components/graph/model';
import { BY_SOURCE_CLASS, kindOfNodeId } from '@/components/runs/evidence-graph';
import { EvidenceChip } from '@/components/runs/EvidenceBits';
import { RUN_GRAPH_STYLES } from '@/components/runs/RunGraphPanel';
import { Badge } from '@/components/ui/Badge';
import { SortableTable, type Column } from '../SortableTable';
import { SimilarityNote } from './similarity';
import type { StepRenderer, StepRendererProps } from './types';

/*
 * BioWeave (bioweave-biomedhop.txt) step views. Its stages record
 * `{usage, output}`; the views read the output, defensively.
 */

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = <T,>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function outputOf(v: unknown): Data {
  if (!isObject(v)) return {};
  return isObject(v.output) ? v.output : v;
}

interface ScoreRow {
  unitId: string;
  text: string;
  source: string;
  round: number | null;
  cos: number | null;
  jaccard: number | null;
  sRel: number | null;
  rPrior: number | null;
  rSup: number | null;
  rKg: number | null;
  sVer: number | null;
  sCross: number | null;
  supp: string[];
  inPool: boolean;
  inTop: boolean;
  poolCut: string | null;
}

/**
 * The cross-verification table, whole: s_rel = 0.7·cos + 0.3·Jaccard; the pool
 * (W1, per-source cap); supporting sources; r_prior, r_sup, r_kg and
 * s_ver = their mean; s_cross = 0.7·s_rel + 0.3·s_ver; the top W2.
 */
function ScoringTable({ detail, ctx }: StepRendererProps) {
  const out = outputOf(detail.step.output);
  const rows: ScoreRow[] = arr<Data>(out.rows).map((r) => ({
    unitId: String(r.unitId ?? ''),
    text: String(r.text ?? ''),
    source: String(r.source ?? ''),
    round: num(r.round),
    cos: num(r.cos),
    jaccard: num(r.jaccard),
    sRel: num(r.sRel),
    rPrior: num(r.rPrior),
    rSup: num(r.rSup),
    rKg: num(r.rKg),
    sVer: num(r.sVer),
    sCross: num(r.sCross),
    supp: arr<string>(r.supp),
    inPool: r.inPool === true,
    inTop: r.inTop === true,
    poolCut: typeof r.poolCut === 'string' ? r.poolCut : null,
  }));
  const columns: Column<ScoreRow>[] = [
    {
      key: 'text',
      header: 'Evidence unit',
      className: 'min-w-48 max-w-64',
      value: (r) => r.text,
      render: (r) =>
        ctx.evidenceById.has(r.unitId) ? (
          <button type="button" className="line-clamp-3 text-left hover:text-blue-800 hover:underline" title={r.text} onClick={() => ctx.selectEvidence(r.unitId)}>
            {r.text}
          </button>
        ) : (
          <span className="line-clamp-3" title={r.text}>
            {r.text}
          </span>
        ),
    },
    { key: 'source', header: 'Source', value: (r) => r.source, render: (r) => <Badge dotColor={(CHANNEL_COLORS as Record<string, string>)[r.source]}>{r.source}</Badge> },
    { key: 'cos', header: 'cos(q,u)', value: (r) => r.cos, numeric: true },
    { key: 'jaccard', header: 'Jaccard', value: (r) => r.jaccard, numeric: true, title: 'Jaccard(topic entities, Ent(u))' },
    { key: 'sRel', header: 's_rel', value: (r) => r.sRel, numeric: true, title: '0.7·cos + 0.3·Jaccard' },
    { key: 'pool', header: 'Pool (W1)', value: (r) => (r.inPool ? 1 : 0), render: (r) => (r.inPool ? 'in' : <span title={r.poolCut ?? ''}>cut{r.poolCut ? `: ${r.poolCut}` : ''}</span>) },
    { key: 'supp', header: 'Supp', value: (r) => r.supp.length, render: (r) => r.supp.join(', ') || '—', title: 'Sources of other units with Sim ≥ γ' },
    { key: 'rPrior', header: 'r_prior', value: (r) => r.rPrior, numeric: true },
    { key: 'rSup', header: 'r_sup', value: (r) => r.rSup, numeric: true },
    { key: 'rKg', header: 'r_kg', value: (r) => r.rKg, numeric: true },
    { key: 'sVer', header: 's_ver', value: (r) => r.sVer, numeric: true, title: '(r_prior + r_sup + r_kg) / 3' },
    { key: 'sCross', header: 's_cross', value: (r) => r.sCross, numeric: true, title: '0.7·s_rel + 0.3·s_ver' },
    { key: 'top', header: 'Top (W2)', value: (r) => r.inTop, render: (r) => (r.inTop ? <Badge tone="blue">top</Badge> : <span className="text-slate-500">no</span>) },
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
function PlanView({ detail }: StepRendererProps) {
  const out = outputOf(detail.step.output);
  const frontier = isObject(out.frontier) ? out.frontier : {};
  return (
    <div className="space-y-1 text-xs text-slate-800">
      <p>
        Round {String(out.round ?? '')} · operator <span className="font-mono">{String(out.operator ?? '—')}</span> · sources {arr<string>(out.sources).join(', ') || 'none'}
      </p>
      <p className="text-slate-600">{String(out.reason ?? '')}</p>
      <ul className="list-disc pl-5">
        {arr<Data>(out.hops).map((h) => (
          <li key={String(h.id)}>
            <span className="font-mono">{String(h.id)}</span>: {String(h.fromKind)} → {String(h.toKind)} via {arr<string>(h.metaedges).join(', ')}
            {arr<string>(out.targetHops).includes(String(h.id)) ? <Badge className="ml-1">targeted</Badge> : null}
            {arr<string>(frontier[String(h.id)]).length ? <span className="text-slate-600"> · frontier: {arr<string>(frontier[String(h.id)]).join(', ')}</span> : null}
          </li>
        ))}
      </ul>
      {arr<string>(out.missingHops).length ? <p className="text-amber-900">Missing hops: {arr<string>(out.missingHops).join(', ')}</p> : null}
    </div>
  );
}

interface PathRow {
  id: string;
  text: string;
  depth: number;
  score: number | null;
  terms: Record<string, number | null>;
  origin: string;
}

/** KG paths per depth with the four rank terms (entity coverage, relation compatibility, missing-hop coverage, operator consistency). */
function PathsView({ detail, ctx }: StepRendererProps) {
  const out = outputOf(detail.step.output);
  const rows: PathRow[] = arr<Data>(out.depths).flatMap((d) =>
    arr<Data>(d.paths).map((p) => ({
      id: String(p.id),
      text: String(p.text ?? ''),
      depth: num(p.depth) ?? num(d.depth) ?? 0,
      score: num(p.score),
      terms: isObject(p.terms) ? (p.terms as Record<string, number | null>) : {},
      origin: String(p.origin ?? ''),
    })),
  );
  const termNames = [...new Set(rows.flatMap((r) => Object.keys(r.terms)))];
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
    ...termNames.map((t): Column<PathRow> => ({ key: t, header: t, value: (r) => r.terms[t] ?? null, numeric: true })),
    { key: 'score', header: 'Score', value: (r) => r.score, numeric: true },
    { key: 'origin', header: 'Origin', value: (r) => r.origin },
  ];
  return <SortableTable caption="KG paths per depth with their rank terms" columns={columns} rows={rows} rowKey={(r) => r.id} initialSort={{ key: 'score', dir: 'desc' }} testId="paths-table" />;
}

/** The refined evidence graph: merged, deduplicated edges coloured by the sources that state them. */
function RefinedGraph({ detail }: StepRendererProps) {
  const out = outputOf(detail.step.output);
  const model: GraphModel = useMemo(() => {
    const edges = arr<Data>(out.edges);
    const names = new Map<string, string>();
    for (const n of arr<Data>(out.nodes)) if (typeof n.nodeId === 'string' || typeof n.id === 'string') names.set(String(n.nodeId ?? n.id), String(n.name ?? n.nodeId ?? n.id));
    const ids = [...new Set(edges.flatMap((e) => [String(e.sourceId), String(e.targetId)]))];
    return {
      nodes: ids.map((id) => ({ id, label: names.get(id) ?? id.split('::').pop() ?? id, kind: kindOfNodeId(id), title: names.get(id) ?? id })),
      edges: edges.map((e) => {
        const sources = arr<string>(e.sources);
        const channel = (sources.find((s) => s !== 'kg') ?? sources[0] ?? 'kg') as GraphChannel;
        const corroborated = arr(e.corroboratedBy).length > 0;
        return {
          id: String(e.key),
          source: String(e.sourceId),
          target: String(e.targetId),
          label: `${String(e.metaedge ?? '')}${corroborated ? ' ✓text' : ''}`,
          channel,
          classes: [BY_SOURCE_CLASS, 'selected'],
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
        footer={<GraphLegend kinds={kindsInModel(model)} extras={channels.map((c) => ({ label: `${c} source`, swatch: { backgroundColor: CHANNEL_COLORS[c], borderRadius: 1, height: 3, width: 16 } }))} />}
      />
      <p className="text-xs text-slate-600">
        {model.edges.length} edges; “✓text” marks KG edges a document or web span corroborates.
      </p>
    </div>
  );
}

/** Whether the refined graph satisfies the operator, the derivation, and the answers with their support. */
function OperatorView({ detail, ctx }: StepRendererProps) {
  const out = outputOf(detail.step.output);
  return (
    <div className="space-y-1 text-sm">
      <p>
        <Badge tone={out.satisfied ? 'green' : 'amber'}>{out.satisfied ? 'operator satisfied' : 'not satisfied'}</Badge> <span className="text-slate-700">{String(out.reason ?? '')}</span>
      </p>
      {arr<string>(out.derivation).length ? (
        <ul className="list-disc pl-5 font-mono text-xs text-slate-800">
          {arr<string>(out.derivation).map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      ) : null}
      {arr<Data>(out.answers).map((a) => (
        <div key={String(a.nodeId ?? a.name)} className="flex flex-wrap items-center gap-1 text-xs">
          <span className="font-medium text-slate-900">{String(a.name)}</span>
          {arr<string>(a.supportIds).map((id) => (
            <EvidenceChip key={id} evidence={ctx.evidenceById.get(id)} onSelect={ctx.selectEvidence} />
          ))}
        </div>
      ))}
      {arr<string>(out.missingHops).length ? <p className="text-xs text-amber-900">Missing hops: {arr<string>(out.missingHops).join(', ')}</p> : null}
    </div>
  );
}

/** The repair decision: answer, or backtrack the missing hop with an updated plan. */
function RepairView({ detail }: StepRendererProps) {
  const out = outputOf(detail.step.output);
  return (
    <div className="space-y-1 text-sm">
      <p>
        <Badge tone={out.decision === 'answer' ? 'green' : 'amber'}>{String(out.decision ?? '—')}</Badge> <span className="text-slate-700">{String(out.reason ?? '')}</span>
      </p>
      {out.missingHop ? <p className="text-xs text-slate-700">Missing hop: {JSON.stringify(out.missingHop)}</p> : null}
      {out.repair ? <p className="text-xs text-slate-700">Repair: {JSON.stringify(out.repair)}</p> : null}
    </div>
  );
}

export const bioweaveRenderers: Record<string, StepRenderer> = {
  'bioweave.verify': { title: 'Cross-verification scoring table', Output: ScoringTable },
  'bioweave.plan': { title: 'Plan and frontier', Output: PlanView },
  'bioweave.paths': { title: 'Paths per depth', Output: PathsView },
  'bioweave.refine': { title: 'Refined evidence graph', Output: RefinedGraph },
  'bioweave.operator': { title: 'Operator check', Output: OperatorView },
  'bioweave.repair': { title: 'Repair decision', Output: RepairView },
};
