import type { ReactNode } from 'react';
import { Button } from './Button';
import { cn } from './cn';

export interface ErrorStateProps {
  title?: ReactNode;
  /** The error, shown as plain text. */
  error?: unknown;
  onRetry?: () => void;
  className?: string;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}

export function ErrorState({ title = 'Something went wrong', error, onRetry, className }: ErrorStateProps) {
  return (
    <div role="alert" className={cn('flex flex-col items-start gap-2 rounded-md border border-red-200 bg-red-50 px-4 py-3', className)}>
      <p className="text-sm font-semibold text-red-900">{title}</p>
      {error !== undefined ? <p className="text-sm break-words text-red-800">{errorMessage(error)}</p> : null}
      {onRetry ? (
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
