import type { ReactNode } from 'react';
import { cn } from './cn';

export interface CardProps {
  title?: ReactNode;
  /** Right-aligned content of the header (counts, actions). */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
  /** id of the heading, for aria-labelledby. */
  headingId?: string;
}

export function Card({ title, actions, children, className, bodyClassName, headingId }: CardProps) {
  return (
    <section aria-labelledby={title ? headingId : undefined} className={cn('rounded-lg border border-slate-200 bg-white shadow-sm', className)}>
      {title || actions ? (
        <header className="flex min-h-11 items-center justify-between gap-3 border-b border-slate-200 px-4 py-2">
          {title ? (
            <h2 id={headingId} className="text-sm font-semibold text-slate-900">
              {title}
            </h2>
          ) : (
            <span />
          )}
          {actions ? <div className="flex items-center gap-2 text-sm text-slate-600">{actions}</div> : null}
        </header>
      ) : null}
      <div className={cn('px-4 py-3', bodyClassName)}>{children}</div>
    </section>
  );
}
