import { cn } from '@/components/ui/cn';
import { formatMs } from '@/components/runs/format';
import { stageName, type StageProgress as Stage } from './tree';

/** One pill per stage of the method (top-level step kinds, in the order they ran): done / total, running, failed. */
export function StageProgress({ stages, live }: { stages: readonly Stage[]; live: boolean }) {
  return (
    <section aria-label="Progress per stage" className="min-h-10" data-testid="stage-progress">
      {stages.length === 0 ? (
        <p className="text-sm text-slate-600">{live ? 'Waiting for the first step…' : 'This run recorded no steps.'}</p>
      ) : (
        <ol className="flex flex-wrap gap-2">
          {stages.map((s) => {
            const done = s.succeeded + s.skipped;
            const state = s.failed ? 'failed' : s.running ? 'running' : 'done';
            return (
              <li
                key={s.kind}
                data-stage={s.kind}
                data-state={state}
                title={`${s.kind}: ${done} of ${s.total} done${s.failed ? `, ${s.failed} failed` : ''} · ${s.calls} model calls · ${formatMs(s.ms)}`}
                className={cn(
                  'flex items-center gap-2 rounded-md border px-2 py-1 text-xs',
                  state === 'failed'
                    ? 'border-red-300 bg-red-50 text-red-900'
                    : state === 'running'
                      ? 'border-blue-300 bg-blue-50 text-blue-900'
                      : 'border-slate-200 bg-white text-slate-800',
                )}
              >
                {state === 'running' ? <span aria-hidden className="inline-block size-2 animate-pulse rounded-full bg-blue-600" /> : null}
                <span className="font-medium">{stageName(s.kind)}</span>
                <span className="tabular-nums text-slate-600">
                  {done}/{s.total}
                </span>
                <span aria-hidden className="relative h-1.5 w-10 overflow-hidden rounded bg-slate-200">
                  <span
                    className={cn('absolute inset-y-0 left-0', state === 'failed' ? 'bg-red-500' : 'bg-blue-600')}
                    style={{ width: `${Math.round((done / Math.max(1, s.total)) * 100)}%` }}
                  />
                </span>
                {s.failed ? <span className="font-semibold">{s.failed} failed</span> : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
