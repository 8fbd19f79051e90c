'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { cancelRunAction, verifyRunAction } from '@/app/actions/runs';
import { Button } from '@/components/ui/Button';
import type { RunView } from '@/lib/runs/view';
import { CopyLink } from './CopyLink';
import { runApiUrls } from './queries';

/** Share link, JSON export and, on the run's own page, cancel (while live) and K2V verification (once finished). */
export function RunActions({
  run,
  readOnly,
  onChanged,
}: {
  run: Pick<RunView, 'id' | 'shareId' | 'shared' | 'status'>;
  readOnly: boolean;
  onChanged?: () => void;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const live = run.status === 'queued' || run.status === 'running';
  const finished = run.status === 'succeeded' || run.status === 'failed';
  const act = (action: (id: string) => Promise<{ message: string | null }>) =>
    startTransition(async () => {
      const result = await action(run.id);
      setMessage(result.message);
      onChanged?.();
      router.refresh();
    });
  return (
    <>
      <CopyLink path={`/r/${run.shareId}`} label="Permalink of this run" />
      <a
        href={runApiUrls.export(run)}
        download
        className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-800 hover:bg-slate-50"
        data-testid="export-json"
      >
        Export JSON
      </a>
      {!readOnly && live ? (
        <Button size="sm" onClick={() => act(cancelRunAction)} disabled={pending}>
          {pending ? 'Cancelling…' : 'Cancel run'}
        </Button>
      ) : null}
      {!readOnly && finished ? (
        <Button
          size="sm"
          onClick={() => act(verifyRunAction)}
          disabled={pending}
          title="K2V: a checklist of binary criteria, judged against this run's answer and evidence"
          data-testid="verify-run"
        >
          {pending ? 'Verifying…' : 'Verify with K2V'}
        </Button>
      ) : null}
      {message ? (
        <p role="alert" className="text-xs text-red-800">
          {message}
        </p>
      ) : null}
    </>
  );
}
