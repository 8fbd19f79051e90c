import type { ReactNode } from 'react';
import { cn } from './cn';

export interface EmptyStateProps {
  title: ReactNode;
  /** Why it is empty. */
  children?: ReactNode;
  /** The next thing the user can do. */
  action?: ReactNode;
  className?: string;
}

export function EmptyState({ title, children, action, className }: EmptyStateProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-md border border-dashed border-slate-300 bg-slate-50 px-6 py-8 text-center',
        className,
      )}
    >
      <p className="text-sm font-semibold text-slate-800">{title}</p>
      {children ? <div className="max-w-prose text-sm text-slate-600">{children}</div> : null}
      {action ? <div className="mt-1">{action}</div> : null}
    </div>
  );
}
