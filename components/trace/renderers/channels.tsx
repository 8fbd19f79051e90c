'use client';

import { Badge } from '@/components/ui/Badge';
import { ChannelBadge, NodeLink } from '@/components/runs/EvidenceBits';
import type { EvidenceView } from '@/lib/runs/view';
import { SortableTable, type Column } from '../SortableTable';
import { byContract, type ContractViewProps } from './contract';
import type { TraceContext } from './types';

/** Entity linking: each mention, the node it linked to (a KG browser link), how and how sure, the other nodes the span matched; then the candidates turned down and why. */
function EntityLinks({ output, input, detail, ctx }: ContractViewProps<'channel.entity'>) {
  if (Array.isArray(output)) return <ChannelRecords ids={output.map((r) => r.id)} label={detail.step.label} ctx={ctx} />;
  const { links, rejected } = output;
  return (
    <div className="space-y-2">
      {input.mode ? <p className="text-xs text-slate-600">Linking mode: {input.mode}</p> : null}
      {links.length === 0 ? (
        <p className="text-sm text-slate-600">No mention in the text linked to a KG entity.</p>
      ) : (
        <table className="w-full text-left text-xs" data-testid="entity-links">
          <caption className="sr-only">Linked entities</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-2">
                Mention
              </th>
              <th scope="col" className="py-1 pr-2">
                Entity
              </th>
              <th scope="col" className="py-1 pr-2">
                Kind
              </th>
              <th scope="col" className="py-1 pr-2">
                Match
              </th>
              <th scope="col" className="py-1 text-right">
                Confidence
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((l, i) => (
              <tr key={`${l.nodeId}:${i}`} className="border-t border-slate-100">
                <td className="py-1 pr-2">“{l.mention}”</td>
                <td className="py-1 pr-2">
                  <NodeLink id={l.nodeId} name={l.name} />
                  {l.readings?.length ? (
                    <span className="text-slate-500"> (also read as {l.readings.map((r) => `${r.name}, ${r.kind}`).join('; ')})</span>
                  ) : null}
                  {l.alternatives?.length ? (
                    <span className="block text-slate-500">
                      weaker: {l.alternatives.map((a) => `${a.name} (${a.kind}, ${a.match} ${a.confidence.toFixed(2)})`).join('; ')}
                    </span>
                  ) : null}
                </td>
                <td className="py-1 pr-2">{l.kind}</td>
                <td className="py-1 pr-2">
                  {l.match ?? l.method}
                  {l.edits ? ` (${l.edits} edit${l.edits > 1 ? 's' : ''} from “${l.matched}”)` : l.matched !== l.name ? ` (“${l.matched}”)` : ''}
                </td>
                <td className="py-1 text-right tabular-nums">{(l.confidence ?? l.score).toFixed(2)}</td>
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

const RECORD_KINDS = ['channel.doc', 'channel.kg', 'channel.kg-shuffle', 'channel.param', 'channel.web'] as const;

/** What a channel step returned: its records, or a document search with the passages it showed and those it withheld. */
function ChannelOutput({ output, detail, ctx }: ContractViewProps<(typeof RECORD_KINDS)[number]>) {
  if (Array.isArray(output)) return <ChannelRecords ids={output.flatMap((r) => ('id' in r ? [r.id] : []))} label={detail.step.label} ctx={ctx} />;
  const ids = [...output.passages, ...output.withheld].map((r) => r.id);
  if (!output.passages.length && !output.withheld.length) {
    return <p className="text-sm text-slate-600">No relevant document: no passage mentions {output.entities.join(', ') || 'a linked entity'}.</p>;
  }
  return <ChannelRecords ids={ids} label={detail.step.label} ctx={ctx} />;
}

/** The evidence records a channel step returned, with their scores; selected = the method used it. */
function ChannelRecords({ ids, label, ctx }: { ids: string[]; label: string; ctx: TraceContext }) {
  const records = ids.flatMap((id) => {
    const e = ctx.evidenceById.get(id);
    return e ? [e] : [];
  });
  if (!records.length) return <p className="text-sm text-slate-600">The channel returned no records.</p>;
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
    {
      key: 'selected',
      header: 'Selected',
      value: (r) => r.selected,
      render: (r) => (r.selected ? <Badge tone="blue">selected</Badge> : <span className="text-slate-500">candidate</span>),
    },
  ];
  return <SortableTable caption={`Records returned by ${label}`} columns={columns} rows={records} rowKey={(r) => r.id} testId="channel-records" />;
}

export const channelRenderers = {
  'channel.entity': byContract(['channel.entity'], 'Linked entities', EntityLinks),
  'channel.': byContract(RECORD_KINDS, 'Evidence records', ChannelOutput),
};
