import type { CSSProperties, ReactNode } from 'react';
import { cn } from './cn';

export interface BadgeProps {
  children: ReactNode;
  /** Background colour of a small swatch dot shown before the text. */
  dotColor?: string;
  tone?: 'neutral' | 'blue' | 'green' | 'red' | 'amber';
  className?: string;
  title?: string;
}

const TONES = {
  neutral: 'bg-slate-100 text-slate-800 ring-slate-300',
  blue: 'bg-blue-50 text-blue-800 ring-blue-200',
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  red: 'bg-red-50 text-red-800 ring-red-200',
  amber: 'bg-amber-50 text-amber-900 ring-amber-200',
} as const;

export function Badge({ children, dotColor, tone = 'neutral', className, title }: BadgeProps) {
  const dotStyle: CSSProperties | undefined = dotColor ? { backgroundColor: dotColor } : undefined;
  return (
    <span
      title={title}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset whitespace-nowrap',
        TONES[tone],
        className,
      )}
    >
      {dotStyle ? <span aria-hidden className="inline-block size-2 rounded-full" style={dotStyle} /> : null}
      {children}
    </span>
  );
}
