'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge } from '@/components/ui/Badge';
import { EmptyState } from '@/components/ui/EmptyState';
import { ErrorState } from '@/components/ui/ErrorState';
import type { EvalJobListEntry } from '@/lib/eval/jobs/read';
import { evalListOptions } from './queries';

const STATUS_TONES = { queued: 'neutral', running: 'blue', succeeded: 'green', failed: 'red', cancelled: 'amber' } as const;

/** The evaluations, newest first, with their progress (polled while any runs). */
export function EvalJobList({ initial }: { initial: EvalJobListEntry[] }) {
  const { data, error, refetch } = useQuery({ ...evalListOptions(), initialData: { items: initial } });
  if (error) return <ErrorState title="The evaluations could not be loaded" error={error} onRetry={() => void refetch()} />;
  if (!data.items.length)
    return <EmptyState title="No evaluations yet">Start one with the form: pick a question set, methods and switch configurations.</EmptyState>;
  return (
    <ul className="divide-y divide-slate-100" data-testid="eval-list">
      {data.items.map((job) => (
        <li key={job.id} className="space-y-1 py-2.5" data-testid="eval-list-item" data-status={job.status}>
          <div className="flex items-center justify-between gap-3">
            <Link href={`/eval/${job.id}`} className="font-medium text-blue-800 hover:underline">
              {job.name ?? job.id}
            </Link>
            <Badge tone={STATUS_TONES[job.status as keyof typeof STATUS_TONES] ?? 'neutral'}>{job.status}</Badge>
          </div>
          <div className="h-1.5 w-full overflow-hidden rounded-full bg-slate-200" aria-hidden>
            <div className="h-full bg-emerald-600" style={{ width: `${job.total ? (job.done / job.total) * 100 : 0}%` }} />
          </div>
          <p className="text-xs text-slate-600">
            {job.done}/{job.total} runs{job.errors ? `, ${job.errors} errors` : ''} · set {job.setName ?? '(deleted)'} · {job.methods.join(', ')} ×{' '}
            {job.configs.join(', ')} · <time dateTime={job.createdAt}>{new Date(job.createdAt).toLocaleString()}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}
