'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useMemo, useRef } from 'react';
import { kgNodeHref } from '@/components/kg/paths';
import { KindBadge } from '@/components/kg/KindBadge';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { ErrorState } from '@/components/ui/ErrorState';
import { Skeleton } from '@/components/ui/Skeleton';
import { ancestorIds, type StepTree } from '@/components/trace/tree';
import type { EvidenceView, RunView } from '@/lib/runs/view';
import type { RejectedHypothesis } from '@/lib/trace/hypotheses';
import { ChannelBadge, EvidenceChip, NodeLink } from './EvidenceBits';
import { kindOfNodeId } from './evidence-graph';
import { documentQueryOptions, nodeProfileQueryOptions } from './queries';
import type { Selection } from './view-state';

export interface ProvenancePanelProps {
  run: RunView;
  tree: StepTree;
  selection: Selection | null;
  /** graph element id → evidence ids (the whole run's graph). */
  evidenceByElement: ReadonlyMap<string, string[]>;
  evidenceById: ReadonlyMap<string, EvidenceView>;
  onSelect: (selection: Selection | null) => void;
  onSelectStep: (ordinal: number) => void;
}

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a graph element or evidence record came from: the KG edge id and
 * metaedge, the document passage with its span highlighted, the entity
 * profile, the steps that retrieved it and the answer claims that cite it.
 */
export function ProvenancePanel(props: ProvenancePanelProps) {
  const { selection, onSelect } = props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Move focus to the panel when a selection is made, so keyboard users land on what they opened
  // (and a reader who picked a record further down the page is brought up to it).
  const key = selection ? `${selection.type}:${selection.id}` : '';
  useEffect(() => {
    if (key) headingRef.current?.focus();
  }, [key]);
  return (
    <section
      aria-labelledby="provenance-heading"
      className="flex min-h-0 flex-1 flex-col rounded-lg border border-slate-200 bg-white shadow-sm"
      data-testid="provenance-panel"
    >
      <header className="flex min-h-10 shrink-0 items-center justify-between gap-3 border-b border-slate-200 px-3 py-1.5">
        <h2 id="provenance-heading" ref={headingRef} tabIndex={-1} className="text-sm font-semibold text-slate-900 outline-none">
          Provenance
        </h2>
        {selection ? (
          <Button size="sm" variant="ghost" onClick={() => onSelect(null)} title="Back to the evidence the answer cites">
            ← Cited evidence
          </Button>
        ) : null}
      </header>
      <div className="max-h-[640px] min-h-0 flex-1 space-y-3 overflow-y-auto px-3 py-2 text-sm lg:max-h-none">
        {!selection ? (
          <p className="text-slate-600">Click a node or an edge in the graph, or an evidence record, to see where it came from and which steps used it.</p>
        ) : selection.type === 'node' ? (
          <NodeProvenance {...props} id={selection.id} />
        ) : selection.type === 'edge' ? (
          <EdgeProvenance {...props} id={selection.id} />
        ) : (
          <EvidenceProvenance {...props} id={selection.id} />
        )}
      </div>
    </section>
  );
}

function recordsOf(ids: readonly string[] | undefined, byId: ReadonlyMap<string, EvidenceView>): EvidenceView[] {
  return (ids ?? []).flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

function StepsUsing({ records, tree, onSelectStep }: { records: readonly EvidenceView[]; tree: StepTree; onSelectStep: (o: number) => void }) {
  const steps = [...new Set(records.flatMap((r) => (r.stepId ? [r.stepId] : [])))].flatMap((id) => (tree.byId.has(id) ? [tree.byId.get(id)!.step] : []));
  if (!steps.length) return null;
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Steps that used it ({steps.length})</h3>
      <ul className="mt-1 space-y-0.5" data-testid="provenance-steps">
        {steps.map((s) => {
          const path = ancestorIds(tree, s.id).map((id) => tree.byId.get(id)!.step.label);
          return (
            <li key={s.id}>
              <button type="button" className="text-left text-blue-800 hover:underline" onClick={() => onSelectStep(s.ordinal)}>
                {path.length ? <span className="text-slate-600">{path.join(' › ')} › </span> : null}
                {s.label}
              </button>{' '}
              <span className="font-mono text-[11px] text-slate-500">{s.kind}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function CitingClaims({ run, records }: { run: RunView; records: readonly EvidenceView[] }) {
  const ids = new Set(records.map((r) => r.id));
  const claims = (run.answer?.claims ?? []).filter((c) => c.evidenceIds.some((id) => ids.has(id)));
  if (!run.answer) return null;
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Answer claims citing it</h3>
      {claims.length ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-800">
          {claims.map((c, i) => (
            <li key={i}>{c.text}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-slate-600">None: the answer does not cite it.</p>
      )}
    </div>
  );
}

function tripleOf(r: EvidenceView): Data | null {
  return isObject(r.data) && typeof r.data.sourceId === 'string' && typeof r.data.targetId === 'string' ? r.data : null;
}

function EdgeProvenance({ id, run, tree, evidenceByElement, evidenceById, onSelect, onSelectStep }: ProvenancePanelProps & { id: string }) {
  const records = recordsOf(evidenceByElement.get(id), evidenceById);
  const rejected = run.rejectedHypotheses.find((h) => h.id === id);
  if (rejected) return <RejectedHypothesisProvenance hypothesis={rejected} tree={tree} onSelectStep={onSelectStep} />;
  if (!records.length)
    return <p className="text-slate-600">No evidence record of this run holds this relation{evidenceByElement.size ? '' : ' (the graph is empty)'}.</p>;
  const first = records[0];
  const hop = findHop(first, id);
  const kgId = id.startsWith('kg:') ? id.slice(3) : null;
  return (
    <div className="space-y-3" data-testid="edge-provenance">
      {hop ? (
        <p className="text-base leading-snug text-slate-900">
          <NodeLink id={String(hop.sourceId)} name={String(hop.sourceName ?? hop.sourceId)} />{' '}
          <span className="text-slate-600">— {String(hop.verb ?? hop.relation ?? hop.metaedge ?? 'relates to')} →</span>{' '}
          <NodeLink id={String(hop.targetId)} name={String(hop.targetName ?? hop.targetId)} />
        </p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        {kgId ? (
          <>
            <dt className="text-slate-600">KG edge id</dt>
            <dd className="font-mono" data-testid="kg-edge-id">
              {kgId}
            </dd>
          </>
        ) : null}
        {hop?.metaedge ? (
          <>
            <dt className="text-slate-600">Metaedge</dt>
            <dd className="font-mono" data-testid="edge-metaedge">
              {String(hop.metaedge)}
            </dd>
          </>
        ) : null}
        <dt className="text-slate-600">Source</dt>
        <dd>
          <ChannelBadge channel={first.channel} /> {first.kind}
        </dd>
        <dt className="text-slate-600">Status</dt>
        <dd>{records.some((r) => r.selected) ? <Badge tone="blue">selected by the method</Badge> : <span>candidate, not selected</span>}</dd>
      </dl>
      <div>
        <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Evidence records ({records.length})</h3>
        <div className="mt-1 flex flex-wrap gap-1">
          {records.map((r) => (
            <EvidenceChip key={r.id} evidence={r} onSelect={(evId) => onSelect({ type: 'ev', id: evId })} />
          ))}
        </div>
      </div>
      <StepsUsing records={records} tree={tree} onSelectStep={onSelectStep} />
      <CitingClaims run={run} records={records} />
    </div>
  );
}

/** A hypothesis the reviewer rejected: never evidence, so never cited; shown with the step that judged it. */
function RejectedHypothesisProvenance({
  hypothesis: h,
  tree,
  onSelectStep,
}: {
  hypothesis: RejectedHypothesis;
  tree: StepTree;
  onSelectStep: (o: number) => void;
}) {
  const step = tree.byId.get(h.stepId)?.step;
  return (
    <div className="space-y-3" data-testid="edge-provenance">
      <p className="text-base leading-snug text-slate-900">
        <NodeLink id={h.sourceId} name={h.sourceName} /> <span className="text-slate-600">— {h.label} →</span> <NodeLink id={h.targetId} name={h.targetName} />
      </p>
      <p>
        <Badge tone="red">hypothesis rejected by the reviewer</Badge>
        {h.score !== null ? <span className="ml-2 text-xs text-slate-600">score {h.score.toFixed(2)}</span> : null}
      </p>
      <p className="text-xs text-slate-700">Rejected hypotheses never become evidence: no claim can cite this one.</p>
      {step ? (
        <button type="button" className="text-left text-sm text-blue-800 hover:underline" onClick={() => onSelectStep(step.ordinal)}>
          Open the step that reviewed it: {step.label}
        </button>
      ) : null}
    </div>
  );
}

/** The hop of a record that is this graph edge (a triple is its own hop; a path has several). */
function findHop(r: EvidenceView, edgeId: string): Data | null {
  if (isObject(r.data) && Array.isArray(r.data.hops)) {
    return (r.data.hops.find((h) => isObject(h) && `kg:${String(h.edgeId ?? h.id)}` === edgeId) as Data | undefined) ?? null;
  }
  return tripleOf(r);
}

function NodeProvenance({ id, run, tree, evidenceByElement, evidenceById, onSelect, onSelectStep }: ProvenancePanelProps & { id: string }) {
  const records = recordsOf(evidenceByElement.get(id), evidenceById);
  const seed = run.seeds.find((s) => s.nodeId === id);
  const profileRecords = run.evidence.filter((e) => e.kind === 'profile' && isObject(e.data) && e.data.nodeId === id);
  const named = useMemo(() => nameFromRecords(records, id) ?? seed?.name ?? id, [records, id, seed]);
  const isAnswer = run.answer?.nodeIds?.includes(id) ?? false;
  return (
    <div className="space-y-3" data-testid="node-provenance">
      <div className="space-y-1">
        <p className="text-base font-semibold text-slate-900">{named}</p>
        <p className="flex flex-wrap items-center gap-2">
          <KindBadge kind={seed?.kind || kindOfNodeId(id)} />
          <span className="font-mono text-xs text-slate-600">{id}</span>
          {seed ? <Badge tone="blue">seed</Badge> : null}
          {isAnswer ? <Badge tone="amber">answer</Badge> : null}
        </p>
        <Link href={kgNodeHref(id)} className="text-sm font-medium text-blue-800 underline" data-testid="kg-link">
          Open in the knowledge graph browser
        </Link>
      </div>
      {seed ? (
        <p className="text-xs text-slate-700">
          Linked from “{seed.mention}” in the question ({seed.method}, score {seed.score.toFixed(2)}).
        </p>
      ) : null}
      <EntityProfile id={id} recorded={profileRecords} onSelect={(evId) => onSelect({ type: 'ev', id: evId })} />
      {records.length ? (
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Evidence touching it ({records.length})</h3>
          <div className="mt-1 flex max-h-40 flex-wrap gap-1 overflow-auto">
            {records.slice(0, 60).map((r) => (
              <EvidenceChip key={r.id} evidence={r} onSelect={(evId) => onSelect({ type: 'ev', id: evId })} />
            ))}
          </div>
        </div>
      ) : null}
      <StepsUsing records={records} tree={tree} onSelectStep={onSelectStep} />
    </div>
  );
}

function nameFromRecords(records: readonly EvidenceView[], id: string): string | null {
  for (const r of records) {
    const hops = isObject(r.data) && Array.isArray(r.data.hops) ? (r.data.hops as Data[]) : isObject(r.data) ? [r.data] : [];
    for (const h of hops) {
      if (h.sourceId === id && typeof h.sourceName === 'string') return h.sourceName;
      if (h.targetId === id && typeof h.targetName === 'string') return h.targetName;
    }
  }
  return null;
}

/** The profile the run read (entity channel), or else the KG's own description of the node. */
function EntityProfile({ id, recorded, onSelect }: { id: string; recorded: readonly EvidenceView[]; onSelect: (id: string) => void }) {
  const query = useQuery({ ...nodeProfileQueryOptions(id), enabled: recorded.length === 0 });
  if (recorded.length) {
    return (
      <div>
        <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Profile the run read</h3>
        {recorded.map((r) => (
          <p key={r.id} className="mt-1 text-slate-800">
            {r.text} <EvidenceChip evidence={r} onSelect={onSelect} />
          </p>
        ))}
      </div>
    );
  }
  if (query.isPending) return <Skeleton className="h-10 w-full" />;
  if (query.isError) return <p className="text-xs text-slate-600">No KG profile: {query.error.message}</p>;
  const text = query.data.node.description || query.data.profiles[0]?.text;
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Entity profile (from the KG; the run did not read it)</h3>
      <p className="mt-1 whitespace-pre-line text-slate-800" data-testid="entity-profile">
        {text || 'No description is loaded for this entity.'}
      </p>
    </div>
  );
}

function EvidenceProvenance({ id, run, tree, evidenceById, onSelect, onSelectStep }: ProvenancePanelProps & { id: string }) {
  const record = evidenceById.get(id);
  if (!record) return <p className="text-slate-600">This run has no evidence record {id}.</p>;
  const triple = tripleOf(record);
  const data = isObject(record.data) ? record.data : null;
  const documentId = typeof data?.documentId === 'string' ? data.documentId : null;
  return (
    <div className="space-y-3" data-testid="evidence-provenance">
      <p className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-mono">#{record.ordinal}</span>
        <ChannelBadge channel={record.channel} />
        <span>{record.kind}</span>
        {record.selected ? <Badge tone="blue">selected</Badge> : <span className="text-slate-600">candidate, not selected</span>}
      </p>
      <p className="break-words whitespace-pre-wrap text-slate-900">{record.text}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-600">Reference</dt>
        <dd className="font-mono break-all">{record.ref}</dd>
        {triple ? (
          <>
            <dt className="text-slate-600">KG edge</dt>
            <dd>
              <button type="button" className="font-mono text-blue-800 underline" onClick={() => onSelect({ type: 'edge', id: `kg:${String(triple.edgeId)}` })}>
                {String(triple.edgeId)} ({String(triple.metaedge)})
              </button>
            </dd>
            <dt className="text-slate-600">Ends</dt>
            <dd>
              <NodeLink id={String(triple.sourceId)} name={String(triple.sourceName)} /> →{' '}
              <NodeLink id={String(triple.targetId)} name={String(triple.targetName)} />
            </dd>
          </>
        ) : null}
        {record.scores && Object.keys(record.scores).length ? (
          <>
            <dt className="text-slate-600">Scores</dt>
            <dd className="tabular-nums">
              {Object.entries(record.scores)
                .map(([k, v]) => `${k} ${v === null ? '—' : Number.isInteger(v) ? v : v.toFixed(3)}`)
                .join(' · ')}
            </dd>
          </>
        ) : null}
      </dl>
      {documentId ? <DocumentSpan documentId={documentId} start={Number(data?.start ?? 0)} end={Number(data?.end ?? 0)} /> : null}
      <SourceSpan data={data} evidenceById={evidenceById} onSelect={(evId) => onSelect({ type: 'ev', id: evId })} />
      <StepsUsing records={[record]} tree={tree} onSelectStep={onSelectStep} />
      <CitingClaims run={run} records={[record]} />
    </div>
  );
}

/** An evidence unit cut from another record (a passage span): that record's text with the span marked. */
function SourceSpan({ data, evidenceById, onSelect }: { data: Data | null; evidenceById: ReadonlyMap<string, EvidenceView>; onSelect: (id: string) => void }) {
  const sourceId = typeof data?.sourceEvidenceId === 'string' ? data.sourceEvidenceId : null;
  const source = sourceId ? evidenceById.get(sourceId) : undefined;
  if (!source) return null;
  const span = isObject(data?.span) ? data.span : null;
  const s = Math.max(0, Math.min(Number(span?.start ?? 0), source.text.length));
  const e = Math.max(s, Math.min(Number(span?.end ?? source.text.length), source.text.length));
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Cut from</h3>
      <div className="mt-1">
        <EvidenceChip evidence={source} onSelect={onSelect} />
      </div>
      <p
        className="mt-1 rounded-md border border-slate-200 bg-slate-50 p-2 text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800"
        data-testid="source-span"
      >
        {source.text.slice(0, s)}
        <mark className="rounded-sm bg-amber-200 text-slate-900">{source.text.slice(s, e)}</mark>
        {source.text.slice(e)}
      </p>
    </div>
  );
}

/** The source document with the cited span marked (text only; the span scrolls into view). */
function DocumentSpan({ documentId, start, end }: { documentId: string; start: number; end: number }) {
  const query = useQuery(documentQueryOptions(documentId));
  const markRef = useRef<HTMLElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // Scroll the document box (not the page) to the span.
  useEffect(() => {
    if (markRef.current && boxRef.current) boxRef.current.scrollTop = Math.max(0, markRef.current.offsetTop - boxRef.current.offsetTop - 24);
  }, [query.data]);
  if (query.isPending) return <Skeleton className="h-24 w-full" />;
  if (query.isError) return <ErrorState title="The source document could not be loaded" error={query.error} onRetry={() => void query.refetch()} />;
  const doc = query.data;
  const s = Math.max(0, Math.min(start, doc.text.length));
  const e = Math.max(s, Math.min(end, doc.text.length));
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Source document</h3>
      <p className="mt-1 text-xs text-slate-700">
        {doc.title || 'untitled'}{' '}
        <span className="text-slate-500">
          ({doc.source}
          {doc.externalId ? ` ${doc.externalId}` : ''}, characters {s}–{e})
        </span>
      </p>
      <div
        ref={boxRef}
        className="relative mt-1 max-h-64 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-2 text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800"
        tabIndex={0}
        data-testid="document-text"
      >
        {doc.text.slice(0, s)}
        <mark ref={markRef} className="rounded-sm bg-amber-200 text-slate-900" data-testid="document-span">
          {doc.text.slice(s, e)}
        </mark>
        {doc.text.slice(e)}
      </div>
    </div>
  );
}
