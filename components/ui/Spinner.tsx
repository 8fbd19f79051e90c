import { cn } from './cn';

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-sm text-slate-600', className)}>
      <span aria-hidden className="inline-block size-4 animate-spin rounded-full border-2 border-slate-300 border-t-blue-700" />
      <span>{label}</span>
    </span>
  );
}
