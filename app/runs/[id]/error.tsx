'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { startTransition } from 'react';
import { ErrorState } from '@/components/ui/ErrorState';

/** The run page failed on the server (the database did not answer): say so, offer a retry. Details stay in the server log. */
export default function RunError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return (
    <section className="mx-auto max-w-2xl space-y-4 py-10">
      <ErrorState
        title="This run could not be loaded"
        error="The database did not answer. Check that Hopscope's database is running, then try again."
        onRetry={retry}
      />
      <Link href="/" className="text-sm font-medium text-blue-800 underline">
        Back to the start page
      </Link>
    </section>
  );
}
