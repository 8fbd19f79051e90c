import 'server-only';
import Link from 'next/link';
import { Badge } from '@/components/ui/Badge';
import { EmptyState } from '@/components/ui/EmptyState';
import { listRecentRuns } from '@/lib/runs/read';
import { STATUS_TONES, statusLabel } from './format';

/** The latest runs, newest first: question, method, status, answer and correctness, each opening its run page. */
export async function RecentRuns({ limit = 12 }: { limit?: number }) {
  const runs = await listRecentRuns(limit);
  return (
    <section aria-labelledby="recent-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="border-b border-slate-200 px-4 py-2">
        <h2 id="recent-heading" className="text-sm font-semibold text-slate-900">
          Recent runs
        </h2>
      </header>
      <div className="px-4 py-3">
        {runs.length === 0 ? (
          <EmptyState title="No runs yet">Ask a question on the left; its run appears here.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="recent-runs">
            {runs.map((r) => {
              const answer = r.answer as { text?: string; abstained?: boolean } | null;
              return (
                <li key={r.id} className="py-2">
                  <Link href={`/runs/${r.id}`} className="block rounded text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600">
                    <span className="line-clamp-2 font-medium break-words text-slate-900">{r.questionText}</span>
                    <span className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                      <span className="font-mono">{r.method}</span>
                      <Badge tone={STATUS_TONES[r.status]}>{statusLabel(r.status)}</Badge>
                      {answer ? <span className="min-w-0 truncate">→ {answer.abstained || !answer.text ? 'abstained' : answer.text}</span> : null}
                      {answer && (answer.abstained || !answer.text) ? null : r.correct === true ? <Badge tone="green">correct</Badge> : r.correct === false ? <Badge tone="red">incorrect</Badge> : null}
                      <time dateTime={r.createdAt.toISOString()} className="ml-auto">
                        {r.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
                      </time>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
