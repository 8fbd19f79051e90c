import { cn } from '@/components/ui/cn';

const MAX_CHARS = 200_000;

/** Any JSON value, pretty-printed as text (never as HTML), in a scrolling block. */
export function JsonView({ value, className, label }: { value: unknown; className?: string; label?: string }) {
  let text = value === undefined ? 'undefined' : JSON.stringify(value, null, 2);
  const clipped = text.length > MAX_CHARS;
  if (clipped)
    text = `${text.slice(0, MAX_CHARS)}\n… (${(text.length - MAX_CHARS).toLocaleString('en-US')} more characters: export the run as JSON to read it all)`;
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className={cn(
        'max-h-80 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-2 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800',
        className,
      )}
    >
      {text}
    </pre>
  );
}

/** Plain text (a prompt, a raw model output), whitespace kept, never parsed as HTML. */
export function TextBlock({ text, className, label }: { text: string; className?: string; label?: string }) {
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className={cn(
        'max-h-80 overflow-auto rounded-md border border-slate-200 bg-white p-2 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800',
        className,
      )}
    >
      {text}
    </pre>
  );
}
