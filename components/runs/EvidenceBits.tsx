import Link from 'next/link';
import type { ReactNode } from 'react';
import { CHANNEL_COLORS } from '@/components/graph/colors';
import { kgNodeHref } from '@/components/kg/paths';
import { Badge } from '@/components/ui/Badge';
import type { EvidenceView } from '@/lib/runs/view';

/** A channel name with its graph colour. */
export function ChannelBadge({ channel }: { channel: string }) {
  return <Badge dotColor={(CHANNEL_COLORS as Record<string, string>)[channel]}>{channel}</Badge>;
}

/** An evidence record named by its ordinal; activating it shows its provenance. */
export function EvidenceChip({ evidence, onSelect }: { evidence: EvidenceView | undefined; onSelect: (id: string) => void }) {
  if (!evidence) return <span className="text-xs text-slate-500">unknown record</span>;
  return (
    <button
      type="button"
      onClick={() => onSelect(evidence.id)}
      title={evidence.text}
      data-testid="evidence-chip"
      className="inline-flex max-w-full min-w-0 items-center gap-1 rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-800 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      <span
        aria-hidden
        className="inline-block size-2 shrink-0 rounded-full"
        style={{ backgroundColor: (CHANNEL_COLORS as Record<string, string>)[evidence.channel] }}
      />
      <span className="font-mono">#{evidence.ordinal}</span>
      <span className="min-w-0 truncate">{evidence.text}</span>
    </button>
  );
}

/** A record id cited in running text, as `[id]`. */
const CITED_RECORD = /\[([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\]/g;

/**
 * Text that cites evidence records by id (an EIGEN-1 aside: "I found that [id], [id] bear on
 * it"): each record the run holds is shown by its ordinal and channel colour and opens its
 * provenance; everything else, unknown ids included, stays text as written.
 */
export function CitingText({
  text,
  evidenceById,
  onSelect,
}: {
  text: string;
  evidenceById: ReadonlyMap<string, EvidenceView>;
  onSelect: (id: string) => void;
}) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(CITED_RECORD)) {
    const evidence = evidenceById.get(match[1]);
    if (!evidence) continue;
    parts.push(text.slice(last, match.index));
    parts.push(
      <button
        key={match.index}
        type="button"
        onClick={() => onSelect(evidence.id)}
        title={evidence.text}
        data-testid="cited-record"
        className="mx-0.5 inline-flex items-center gap-1 rounded border border-slate-300 bg-white px-1 align-baseline font-mono text-[11px] text-slate-800 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        <span
          aria-hidden
          className="inline-block size-2 shrink-0 rounded-full"
          style={{ backgroundColor: (CHANNEL_COLORS as Record<string, string>)[evidence.channel] }}
        />
        #{evidence.ordinal}
      </button>,
    );
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** A KG entity: its name links to the KG browser page. */
export function NodeLink({ id, name, className }: { id: string; name: string; className?: string }) {
  return (
    <Link
      href={kgNodeHref(id)}
      className={className ?? 'font-medium text-blue-800 hover:underline'}
      title={`${name} — open in the knowledge graph browser (${id})`}
    >
      {name}
    </Link>
  );
}
