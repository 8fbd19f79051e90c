'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { runAttributionGridAction } from '@/app/actions/runs';
import { Button } from '@/components/ui/Button';

/** Starts the grid configurations not yet run (server action); the panel fills in as they finish and the page is reloaded. */
export function RunGridButton({ runId, missing }: { runId: string; missing: string[] }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await runAttributionGridAction(runId);
            setMessage(result.message ?? 'Started. Reload this page when the runs have finished.');
            router.refresh();
          })
        }
      >
        {pending ? 'Starting…' : `Run the missing configurations (${missing.join(', ')})`}
      </Button>
      {message ? (
        <p role="status" className="text-xs text-slate-700">
          {message}
        </p>
      ) : null}
    </div>
  );
}
