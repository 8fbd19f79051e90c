'use client';

import { useMemo, useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { SortableTable, type Column } from '@/components/trace/SortableTable';
import type { StepTree } from '@/components/trace/tree';
import type { EvidenceView, RunView } from '@/lib/runs/view';
import { CHANNELS } from '@/lib/trace/types';
import { ChannelBadge } from './EvidenceBits';

export interface EvidencePanelProps {
  run: RunView;
  tree: StepTree;
  selectedEvidenceId: string | null;
  onSelectEvidence: (id: string) => void;
}

const MAX_SCORE_COLUMNS = 6;

/** Every evidence record of the run by channel, cited and selected ones marked (the answer's claims with their evidence are on the first screen). */
export function EvidencePanel({ run, tree, selectedEvidenceId, onSelectEvidence }: EvidencePanelProps) {
  const [selectedOnly, setSelectedOnly] = useState(false);
  const byChannel = useMemo(() => {
    const groups = new Map<string, EvidenceView[]>();
    for (const e of run.evidence) {
      if (selectedOnly && !e.selected) continue;
      const group = groups.get(e.channel);
      if (group) group.push(e);
      else groups.set(e.channel, [e]);
    }
    return CHANNELS.flatMap((c) => (groups.has(c) ? [[c, groups.get(c)!] as const] : []));
  }, [run.evidence, selectedOnly]);
  const cited = useMemo(() => new Set(run.answer?.evidenceIds ?? []), [run.answer]);
  const skippedChannels = run.steps.filter((s) => s.status === 'skipped' && s.kind.startsWith('channel.'));

  return (
    <section aria-labelledby="evidence-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex min-h-11 flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-2">
        <h2 id="evidence-heading" className="text-sm font-semibold text-slate-900">
          All evidence <span className="font-normal text-slate-600">({run.evidence.length} records)</span>
        </h2>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={selectedOnly} onChange={(e) => setSelectedOnly(e.target.checked)} className="size-4" />
          Selected only
        </label>
      </header>
      <div className="space-y-4 px-4 py-3">
        {skippedChannels.length ? (
          <p className="text-xs text-slate-600">
            Switched off: {[...new Set(skippedChannels.map((s) => s.kind.slice('channel.'.length)))].join(', ')} — {skippedChannels.length} channel request
            {skippedChannels.length === 1 ? '' : 's'} skipped.
          </p>
        ) : null}
        {run.evidence.length === 0 ? (
          <p className="text-sm text-slate-600">
            {run.status === 'queued' || run.status === 'running' ? 'Evidence appears as channels answer.' : 'The run recorded no evidence.'}
          </p>
        ) : (
          byChannel.map(([channel, records]) => (
            <ChannelGroup
              key={channel}
              channel={channel}
              records={records}
              tree={tree}
              cited={cited}
              selectedEvidenceId={selectedEvidenceId}
              onSelectEvidence={onSelectEvidence}
            />
          ))
        )}
      </div>
    </section>
  );
}

function ChannelGroup({
  channel,
  records,
  tree,
  cited,
  selectedEvidenceId,
  onSelectEvidence,
}: {
  channel: string;
  records: EvidenceView[];
  tree: StepTree;
  cited: ReadonlySet<string>;
  selectedEvidenceId: string | null;
  onSelectEvidence: (id: string) => void;
}) {
  const selected = records.filter((r) => r.selected).length;
  const scoreNames = useMemo(() => [...new Set(records.flatMap((r) => Object.keys(r.scores ?? {})))].slice(0, MAX_SCORE_COLUMNS), [records]);
  const columns = useMemo<Column<EvidenceView>[]>(
    () => [
      { key: 'ordinal', header: '#', value: (r) => r.ordinal, numeric: true },
      {
        key: 'text',
        header: 'Evidence',
        className: 'min-w-56',
        value: (r) => r.text,
        render: (r) => (
          <button
            type="button"
            onClick={() => onSelectEvidence(r.id)}
            className="line-clamp-3 text-left break-words text-slate-800 hover:text-blue-800 hover:underline"
            title={r.text}
            data-testid="evidence-row-button"
          >
            {r.text}
          </button>
        ),
      },
      { key: 'kind', header: 'Kind', value: (r) => r.kind },
      { key: 'step', header: 'Step', value: (r) => (r.stepId ? (tree.byId.get(r.stepId)?.step.label ?? '') : '') },
      ...scoreNames.map((name): Column<EvidenceView> => ({ key: `score:${name}`, header: name, value: (r) => r.scores?.[name] ?? null, numeric: true })),
      {
        key: 'selected',
        header: 'Selected',
        value: (r) => (cited.has(r.id) ? 2 : r.selected ? 1 : 0),
        render: (r) =>
          cited.has(r.id) ? <Badge tone="green">cited</Badge> : r.selected ? <Badge tone="blue">selected</Badge> : <span className="text-slate-500">no</span>,
      },
    ],
    [scoreNames, tree, cited, onSelectEvidence],
  );
  return (
    <details open className="group" data-testid={`evidence-${channel}`} data-count={records.length}>
      <summary className="flex cursor-pointer items-center gap-2 text-sm select-none">
        <span aria-hidden className="text-xs transition-transform group-open:rotate-90">
          ▸
        </span>
        <ChannelBadge channel={channel} />
        <span className="text-slate-700">
          {records.length} record{records.length === 1 ? '' : 's'}, {selected} selected
        </span>
      </summary>
      <div className="mt-2">
        <SortableTable
          caption={`${channel} evidence`}
          columns={columns}
          rows={records}
          rowKey={(r) => r.id}
          rowClassName={(r) => (r.id === selectedEvidenceId ? 'bg-amber-50' : r.selected ? undefined : 'text-slate-600')}
          pageSize={40}
        />
      </div>
    </details>
  );
}
