'use client';

import { Badge } from '@/components/ui/Badge';
import { ChannelBadge, NodeLink } from '@/components/runs/EvidenceBits';
import { SortableTable, type Column } from '../SortableTable';
import type { StepRenderer, StepRendererProps } from './types';
import type { EvidenceView } from '@/lib/runs/view';
import { readLinkReport } from '@/lib/kg/link-report';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Entity linking: each mention, the node it linked to (a KG browser link), how and how well; then the candidates turned down and why. */
function EntityLinks({ detail, ctx }: StepRendererProps) {
  const report = readLinkReport(detail.step.output);
  if (!report) return <ChannelRecords detail={detail} ctx={ctx} />;
  const { links, rejected } = report;
  const input = detail.step.input as { text?: string; mode?: string } | null;
  return (
    <div className="space-y-2">
      {input?.mode ? <p className="text-xs text-slate-600">Linking mode: {input.mode}</p> : null}
      {links.length === 0 ? (
        <p className="text-sm text-slate-600">No mention in the text linked to a KG entity.</p>
      ) : (
        <table className="w-full text-left text-xs" data-testid="entity-links">
          <caption className="sr-only">Linked entities</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-2">Mention</th>
              <th scope="col" className="py-1 pr-2">Entity</th>
              <th scope="col" className="py-1 pr-2">Kind</th>
              <th scope="col" className="py-1 pr-2">Method</th>
              <th scope="col" className="py-1 text-right">Score</th>
            </tr>
          </thead>
          <tbody>
            {links.map((l, i) => (
              <tr key={`${l.nodeId}:${i}`} className="border-t border-slate-100">
                <td className="py-1 pr-2">“{l.mention}”</td>
                <td className="py-1 pr-2">
                  <NodeLink id={l.nodeId} name={l.name} />
                  {l.readings?.length ? <span className="text-slate-500"> (also read as {l.readings.map((r) => `${r.name}, ${r.kind}`).join('; ')})</span> : null}
                </td>
                <td className="py-1 pr-2">{l.kind}</td>
                <td className="py-1 pr-2">{l.method}</td>
                <td className="py-1 text-right tabular-nums">{Number(l.score ?? 0).toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rejected.length ? (
        <table className="w-full text-left text-xs" data-testid="entity-rejections">
          <caption className="py-1 text-left text-slate-600">Candidates turned down</caption>
          <tbody>
            {rejected.map((r, i) => (
              <tr key={`${r.nodeId}:${i}`} className="border-t border-slate-100">
                <td className="py-1 pr-2">“{r.mention}”</td>
                <td className="py-1 pr-2">
                  {r.name} ({r.kind})
                </td>
                <td className="py-1 text-slate-600">{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/** The evidence records a channel step returned, with their scores; selected = the method used it. */
function ChannelRecords({ detail, ctx }: StepRendererProps) {
  const output = detail.step.output;
  // A document search records its result beside the passages it showed and those it withheld.
  const search = isObject(output) && Array.isArray(output.passages) ? output : null;
  const list = Array.isArray(output) ? output : search ? [...(output as { passages: unknown[] }).passages, ...(((output as { withheld?: unknown[] }).withheld) ?? [])] : [];
  const ids = list.flatMap((o) => (isObject(o) && typeof o.id === 'string' ? [o.id] : []));
  const records = ids.flatMap((id) => {
    const e = ctx.evidenceById.get(id);
    return e ? [e] : [];
  });
  if (detail.step.status === 'skipped') return <p className="text-sm text-slate-700">Skipped: {String((output as { reason?: string } | null)?.reason ?? '')}</p>;
  if (!records.length) return <p className="text-sm text-slate-600">{search ? `No relevant document: no passage mentions ${String((search.entities as string[]).join(', ') || 'a linked entity')}.` : 'The channel returned no records.'}</p>;
  const scoreNames = [...new Set(records.flatMap((r) => Object.keys(r.scores ?? {})))];
  const columns: Column<EvidenceView>[] = [
    { key: 'ordinal', header: '#', value: (r) => r.ordinal, numeric: true },
    {
      key: 'text',
      header: 'Evidence',
      className: 'min-w-56',
      value: (r) => r.text,
      render: (r) => (
        <button type="button" className="text-left text-slate-800 hover:text-blue-800 hover:underline" onClick={() => ctx.selectEvidence(r.id)}>
          {r.text}
        </button>
      ),
    },
    { key: 'channel', header: 'Channel', value: (r) => r.channel, render: (r) => <ChannelBadge channel={r.channel} /> },
    ...scoreNames.map((name): Column<EvidenceView> => ({ key: `score:${name}`, header: name, value: (r) => r.scores?.[name] ?? null, numeric: true })),
    { key: 'selected', header: 'Selected', value: (r) => r.selected, render: (r) => (r.selected ? <Badge tone="blue">selected</Badge> : <span className="text-slate-500">candidate</span>) },
  ];
  return <SortableTable caption={`Records returned by ${detail.step.label}`} columns={columns} rows={records} rowKey={(r) => r.id} testId="channel-records" />;
}

export const channelRenderers: Record<string, StepRenderer> = {
  'channel.entity': { title: 'Linked entities', Output: EntityLinks },
  'channel.': { title: 'Evidence records', Output: ChannelRecords },
};
