import { cn } from './cn';

/** A grey placeholder block of fixed size, so that loading never shifts the layout. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn('animate-pulse rounded bg-slate-200', className)} />;
}
