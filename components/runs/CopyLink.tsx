'use client';

import { useState, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/Button';

const noSubscription = () => () => undefined;

/** The permalink as a visible, selectable field and a copy button (the field works where the clipboard API does not). */
export function CopyLink({ path, label = 'Share link', testId = 'share-link' }: { path: string; label?: string; testId?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  // The origin is known only in the browser; the server renders the path (no hydration mismatch).
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => '',
  );
  const url = `${origin}${path}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
    window.setTimeout(() => setCopied(null), 2_500);
  };
  return (
    <div className="flex min-w-0 items-center gap-2">
      <label className="sr-only" htmlFor={`${testId}-input`}>
        {label}
      </label>
      <input
        id={`${testId}-input`}
        data-testid={testId}
        readOnly
        value={url}
        onFocus={(e) => e.currentTarget.select()}
        className="h-8 w-52 min-w-0 rounded-md border border-slate-300 bg-slate-50 px-2 font-mono text-xs text-slate-800"
      />
      <Button size="sm" onClick={copy} aria-live="polite">
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select and copy' : 'Copy link'}
      </Button>
    </div>
  );
}
