import type { JobProgress } from '@/lib/eval/jobs/progress';
import { duration } from '@/lib/eval/jobs/format';
import { isLive } from './queries';

/** Live progress of a job: a bar (errors in red), done / total / errors / in flight, and the ETA while it runs. */
export function ProgressPanel({ progress, status }: { progress: JobProgress; status: string }) {
  const { total, done, errors, inFlight, pending, etaMs, rate } = progress;
  const share = (n: number) => `${total ? (n / total) * 100 : 0}%`;
  const live = isLive(status);
  return (
    <section
      aria-label="Progress"
      data-testid="eval-progress"
      data-status={status}
      data-done={done}
      data-total={total}
      data-errors={errors}
      className="space-y-2"
    >
      <div
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label="Runs finished"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="bg-emerald-600" style={{ width: share(done - errors) }} />
        <div className="bg-red-600" style={{ width: share(errors) }} />
        <div className={live ? 'animate-pulse bg-blue-300' : 'bg-blue-300'} style={{ width: share(inFlight) }} />
      </div>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        <span>
          <strong className="text-slate-900">{done}</strong> of {total} runs done
        </span>
        <span className={errors ? 'text-red-800' : undefined}>
          {errors} error{errors === 1 ? '' : 's'}
        </span>
        {live ? (
          <span>
            {inFlight} in flight · {pending} waiting
          </span>
        ) : null}
        {live && rate ? <span>{(rate * 60).toFixed(1)} runs/min</span> : null}
        {live ? <span data-testid="eval-eta">ETA {etaMs === null ? 'estimating…' : duration(etaMs)}</span> : null}
      </p>
    </section>
  );
}
