import 'server-only';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { Badge } from '@/components/ui/Badge';
import { EmptyState } from '@/components/ui/EmptyState';
import { BROWSER_RUNS_COOKIE, parseRememberedRuns } from '@/lib/runs/browser-runs';
import { listRecentRuns } from '@/lib/runs/read';
import { viewerFor } from '@/lib/auth/viewer';
import { STATUS_TONES, statusLabel } from './format';

export type RecentRunsScope = 'browser' | 'all';

/**
 * The latest runs, newest first: question, method, status, answer and correctness, each opening its run page.
 * By default only the runs started from this browser (remembered in a cookie); `all` lists everyone's.
 */
export async function RecentRuns({ limit = 12, scope = 'browser' }: { limit?: number; scope?: RecentRunsScope }) {
  const mine = parseRememberedRuns((await cookies()).get(BROWSER_RUNS_COOKIE)?.value);
  // With sign-in on, "all" is the signed-in user's own runs (and those from before sign-in).
  const viewer = await viewerFor().catch(() => null);
  if (viewer === null) return null;
  const runs = scope === 'all' ? await listRecentRuns(limit, { viewer }) : mine.length ? await listRecentRuns(limit, { ids: mine, viewer }) : [];
  const tab = (target: RecentRunsScope, label: string) => (
    <Link
      href={target === 'all' ? '/?runs=all' : '/'}
      scroll={false}
      aria-current={scope === target ? 'page' : undefined}
      className={scope === target ? 'font-semibold text-slate-900' : 'text-blue-800 hover:underline'}
      data-testid={`recent-scope-${target}`}
    >
      {label}
    </Link>
  );
  return (
    <section aria-labelledby="recent-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm" data-scope={scope}>
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h2 id="recent-heading" className="text-sm font-semibold text-slate-900">
          Recent runs
        </h2>
        <nav aria-label="Whose runs" className="flex items-center gap-2 text-xs">
          {tab('browser', 'Started here')}
          <span aria-hidden className="text-slate-300">
            |
          </span>
          {tab('all', 'All runs')}
        </nav>
      </header>
      <div className="px-4 py-3">
        {runs.length === 0 ? (
          <EmptyState title={scope === 'all' ? 'No runs yet' : 'No runs from this browser yet'}>
            {scope === 'all'
              ? 'Ask a question on the left; its run appears here.'
              : 'Ask a question on the left; the runs you start here are listed, newest first. “All runs” shows everyone’s.'}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="recent-runs">
            {runs.map((r) => {
              const answer = r.answer;
              return (
                <li key={r.id} className="py-2">
                  <Link href={`/runs/${r.id}`} className="block rounded text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600">
                    <span className="line-clamp-2 font-medium break-words text-slate-900">{r.questionText}</span>
                    <span className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                      <span className="font-mono">{r.method}</span>
                      <Badge tone={STATUS_TONES[r.status]}>{statusLabel(r.status)}</Badge>
                      {answer ? <span className="min-w-0 truncate">→ {answer.abstained || !answer.text ? 'abstained' : answer.text}</span> : null}
                      {answer && (answer.abstained || !answer.text) ? null : r.correct === true ? (
                        <Badge tone="green">correct</Badge>
                      ) : r.correct === false ? (
                        <Badge tone="red">incorrect</Badge>
                      ) : null}
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
