'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { startTransition } from 'react';
import { ErrorState } from '@/components/ui/ErrorState';

/** The entity page failed (the database did not answer): say so, offer a retry. Details stay in the server log. */
export default function EntityError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const retry = () =>
    startTransition(() => {
      router.refresh(); // re-run the server component, not just the client boundary
      reset();
    });
  return (
    <section className="mx-auto max-w-2xl space-y-4 py-10">
      <ErrorState
        title="This entity could not be loaded"
        error="The knowledge graph did not answer. Check that the database is running, then try again."
        onRetry={retry}
      />
      <Link href="/kg" className="text-sm font-medium text-blue-800 underline">
        Back to the knowledge graph browser
      </Link>
    </section>
  );
}
