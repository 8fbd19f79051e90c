import 'server-only';
import { kindColor } from '@/components/graph/colors';
import { kgStats } from '@/lib/kg';

/** Size of the loaded graph, by node kind. Server component; says so plainly when the database does not answer. */
export async function KgStatsSummary() {
  let stats: Awaited<ReturnType<typeof kgStats>>;
  try {
    stats = await kgStats();
  } catch {
    return <p className="text-sm text-slate-600">The graph statistics are unavailable: the database did not answer.</p>;
  }
  if (stats.nodes === 0) {
    return <p className="text-sm text-slate-600">No knowledge graph is loaded yet. Start Hopscope with the data directory to import Hetionet.</p>;
  }
  const source = stats.lastImport ? `${stats.lastImport.source} ${stats.lastImport.version}`.trim() : null;
  return (
    <div className="space-y-2" data-testid="kg-stats">
      <p className="text-sm text-slate-700">
        <strong className="tabular-nums">{stats.nodes.toLocaleString('en-US')}</strong> nodes ·{' '}
        <strong className="tabular-nums">{stats.edges.toLocaleString('en-US')}</strong> edges · {stats.metaedges.length} relation types
        {source ? <> · {source}</> : null}
      </p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {stats.kinds.map((k) => (
          <li key={k.kind} className="inline-flex items-center gap-1.5">
            <span aria-hidden className="inline-block size-2.5 rounded-full" style={{ backgroundColor: kindColor(k.kind) }} />
            {k.kind} <span className="text-slate-500 tabular-nums">{k.count.toLocaleString('en-US')}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
